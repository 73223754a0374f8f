// HTML text and links, for the hosted pages and the e-mails alike.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The value as a link when it is an http(s) URL, else '' (never `javascript:` or `data:`). */
export function safeLink(value: unknown): string {
  const s = String(value ?? '');
  return /^https?:\/\//i.test(s) ? s : '';
}
