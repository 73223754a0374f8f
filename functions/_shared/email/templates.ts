// E-mail templates: each renders a subject, a plain-text body and an HTML body from the outbox
// row's data, in the row's locale (falling back to English). Every value from data is escaped
// in HTML; links are only ever http(s).

import { REVIEW_REQUEST_TEMPLATES } from './review-request-templates.ts';

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
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function safeLink(value: unknown): string {
  const s = String(value ?? '');
  return /^https?:\/\//i.test(s) ? s : '';
}

function layout(lang: string, title: string, bodyHtml: string, footer: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:32px">
${bodyHtml}
<p style="margin-top:32px;font-size:12px;color:#6e7781">${footer}</p>
</div>
</body>
</html>
`;
}

type Strings = {
  subject: (org: string) => string;
  greeting: (name: string) => string;
  intro: (org: string) => string;
  button: string;
  fallback: string;
  ignore: string;
  footer: (org: string) => string;
};

const REVIEW_VERIFICATION: Record<string, Strings> = {
  en: {
    subject: (org) => `Please confirm your review of ${org}`,
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    intro: (org) => `Thank you for reviewing ${org}. Please confirm your e-mail address so that your review can be published.`,
    button: 'Confirm my review',
    fallback: 'If the button does not work, open this link:',
    ignore: 'If you did not write this review, ignore this message: nothing will be published.',
    footer: (org) => `Sent on behalf of ${org} by Plaudit.`,
  },
  de: {
    subject: (org) => `Bitte bestätigen Sie Ihre Bewertung von ${org}`,
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    intro: (org) => `Vielen Dank für Ihre Bewertung von ${org}. Bitte bestätigen Sie Ihre E-Mail-Adresse, damit Ihre Bewertung veröffentlicht werden kann.`,
    button: 'Bewertung bestätigen',
    fallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    ignore: 'Wenn Sie diese Bewertung nicht geschrieben haben, ignorieren Sie diese Nachricht: Es wird nichts veröffentlicht.',
    footer: (org) => `Im Auftrag von ${org} versendet von Plaudit.`,
  },
};

function pick<T>(table: Record<string, T>, locale: string): [string, T] {
  const lang = locale.toLowerCase().split('-')[0];
  return table[lang] ? [lang, table[lang]] : ['en', table.en];
}

function reviewVerification({ locale, orgName, data }: TemplateInput): RenderedEmail {
  const [lang, t] = pick(REVIEW_VERIFICATION, locale);
  const name = String(data.reviewer_name ?? '').trim();
  const link = safeLink(data.verify_url);
  const subject = t.subject(orgName);
  const text = [
    t.greeting(name), '', t.intro(orgName), '', `${t.button}: ${link}`, '', t.ignore, '', '-- ', t.footer(orgName), '',
  ].join('\n');
  const html = layout(lang, subject, `
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(t.intro(orgName))}</p>
<p style="margin:28px 0"><a href="${escapeHtml(link)}" style="background:#1f6feb;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(t.button)}</a></p>
<p style="font-size:13px;color:#57606a">${escapeHtml(t.fallback)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:13px;color:#57606a">${escapeHtml(t.ignore)}</p>`, escapeHtml(t.footer(orgName)));
  return { subject, text, html };
}

export const TEMPLATES: Record<string, (input: TemplateInput) => RenderedEmail> = {
  review_verification: reviewVerification,
  ...REVIEW_REQUEST_TEMPLATES,
};

export class UnknownTemplateError extends Error {}

export function renderEmail(template: string, input: TemplateInput): RenderedEmail {
  const render = TEMPLATES[template];
  if (!render) throw new UnknownTemplateError(`no e-mail template named ${template}`);
  return render(input);
}
