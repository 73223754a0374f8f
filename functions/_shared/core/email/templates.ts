// E-mail templates: each renders a subject, a plain-text body and an HTML body from the outbox
// row's data, in the row's locale (falling back to English). Every value from data is escaped
// in HTML; links are only ever http(s).

import { escapeHtml, safeLink } from '../html.ts';
import { button, fallbackLink, layout, pick, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';
import { APPEAL_TEMPLATES } from './appeal-templates.ts';
import { burstDetectedEmail } from './burst-template.ts';
import { QUESTION_TEMPLATES } from './question-templates.ts';
import { REPORT_TEMPLATES } from './report-templates.ts';
import { REVIEW_REQUEST_TEMPLATES } from './review-request-templates.ts';
import { signInEmail } from './sign-in-template.ts';
import { statementOfReasonsEmail } from './statement-template.ts';

export type { RenderedEmail, TemplateInput } from './layout.ts';

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
    intro: (org) =>
      `Thank you for reviewing ${org}. Please confirm your e-mail address so that your review can be published.`,
    button: 'Confirm my review',
    fallback: 'If the button does not work, open this link:',
    ignore: 'If you did not write this review, ignore this message: nothing will be published.',
    footer: (org) => `Sent on behalf of ${org} by Plaudit.`,
  },
  de: {
    subject: (org) => `Bitte bestätigen Sie Ihre Bewertung von ${org}`,
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    intro: (org) =>
      `Vielen Dank für Ihre Bewertung von ${org}. Bitte bestätigen Sie Ihre E-Mail-Adresse, damit Ihre Bewertung veröffentlicht werden kann.`,
    button: 'Bewertung bestätigen',
    fallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    ignore:
      'Wenn Sie diese Bewertung nicht geschrieben haben, ignorieren Sie diese Nachricht: Es wird nichts veröffentlicht.',
    footer: (org) => `Im Auftrag von ${org} versendet von Plaudit.`,
  },
};

function reviewVerification({ locale, orgName, data }: TemplateInput): RenderedEmail {
  const [lang, t] = pick(REVIEW_VERIFICATION, locale);
  const name = String(data.reviewer_name ?? '').trim();
  const link = safeLink(data.verify_url);
  const subject = t.subject(orgName);
  const text = plainText([t.greeting(name), '', t.intro(orgName), '', `${t.button}: ${link}`, '', t.ignore], [
    t.footer(orgName),
  ]);
  const html = layout(
    lang,
    subject,
    `
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(t.intro(orgName))}</p>
${button(link, t.button)}
${fallbackLink(t.fallback, link)}
${smallPrint(t.ignore)}`,
    escapeHtml(t.footer(orgName)),
  );
  return { subject, text, html };
}

export const TEMPLATES: Record<string, (input: TemplateInput) => RenderedEmail> = {
  review_verification: reviewVerification,
  ...REVIEW_REQUEST_TEMPLATES,
  ...REPORT_TEMPLATES,
  statement_of_reasons: statementOfReasonsEmail,
  ...APPEAL_TEMPLATES,
  review_burst_detected: burstDetectedEmail,
  ...QUESTION_TEMPLATES,
  sign_in: signInEmail,
};

export class UnknownTemplateError extends Error {}

export function renderEmail(template: string, input: TemplateInput): RenderedEmail {
  const render = TEMPLATES[template];
  if (!render) throw new UnknownTemplateError(`no e-mail template named ${template}`);
  return render(input);
}
