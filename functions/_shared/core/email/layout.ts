// What every e-mail template shares: its input and output, the locale it picks, and the HTML
// frame around its body. Every value from data is escaped in HTML; links are only ever http(s).
import { escapeHtml } from '../html.ts';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Extra message headers (List-Unsubscribe, …). */
  headers?: Record<string, string>;
}

export interface TemplateInput {
  locale: string;
  orgName: string;
  data: Record<string, unknown>;
  /** The public address of the hosted pages, for links the database cannot know (an appeal's). */
  publicUrl?: string;
}

/** The strings of the message's language, English when there are none for it. */
export function pick<T>(table: Record<string, T>, locale: string): [string, T] {
  const lang = locale.toLowerCase().split('-')[0];
  return table[lang] ? [lang, table[lang]] : ['en', table.en];
}

/** The HTML document of a message; `pixel` is the open-tracking image of review requests. */
export function layout(lang: string, title: string, bodyHtml: string, footerHtml: string, pixel = ''): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${
    escapeHtml(title)
  }</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:32px">
${bodyHtml}
<p style="margin-top:32px;font-size:12px;color:#6e7781">${footerHtml}</p>
</div>${pixel}
</body>
</html>
`;
}

/** The message's call to action, as a button that survives mail clients' styling. */
export const button = (href: string, label: string) =>
  `<p style="margin:28px 0"><a href="${
    escapeHtml(href)
  }" style="background:#1f6feb;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${
    escapeHtml(label)
  }</a></p>`;

/** The plain-text part: its lines, then the signature after the `-- ` line that mail clients recognize. */
export function plainText(lines: string[], signature: string[]): string {
  return [...lines, '', '-- ', ...signature, ''].join('\n');
}

/** A line of small print; `text` is plain text. */
export const smallPrint = (text: string) => `<p style="font-size:13px;color:#57606a">${escapeHtml(text)}</p>`;

/** The button's link written out, for mail clients that do not show the button. */
export const fallbackLink = (label: string, href: string) =>
  `<p style="font-size:13px;color:#57606a">${escapeHtml(label)}<br><a href="${escapeHtml(href)}">${
    escapeHtml(href)
  }</a></p>`;
