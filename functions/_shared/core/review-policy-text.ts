// The business's own sections of its review policy page (public_profiles.review_policy), as the
// page, its markdown twin and the dashboard's preview split them: paragraphs parted by a blank
// line, each keeping its line breaks, shown as text.

/** The business's own text as paragraphs: a blank line parts them; each keeps its line breaks. */
export function ownParagraphs(text: string | null | undefined): string[] {
  if (!text) return [];
  return text.replace(/\r\n?/g, '\n').split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p.length > 0);
}
