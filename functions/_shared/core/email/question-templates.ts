// The questions' mails (docs/questions.md): the asker's confirmation link, and a verified buyer's
// invitation to answer one question. Every value from data is escaped in HTML; links are only
// ever http(s).
import { escapeHtml, safeLink } from '../html.ts';
import { button, fallbackLink, layout, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const FOOTER = (org: string) => `Sent on behalf of ${org} by Plaudit.`;
const FALLBACK = 'If the button does not work, open this link:';

function render(
  orgName: string,
  subject: string,
  paragraphs: string[],
  link: string,
  action: string,
  after: string,
): RenderedEmail {
  const body = plainText([...paragraphs, '', `${action}: ${link}`, '', after], [FOOTER(orgName)]);
  const html = layout(
    'en',
    subject,
    `
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${button(link, action)}
${fallbackLink(FALLBACK, link)}
${smallPrint(after)}`,
    escapeHtml(FOOTER(orgName)),
  );
  return { subject, text: body, html };
}

/** `question_confirmation`: the asker confirms their address before the question shows. */
function questionConfirmation({ orgName, data }: TemplateInput): RenderedEmail {
  const name = text(data.asker_name);
  return render(
    orgName,
    `Please confirm your question to ${orgName}`,
    [
      name ? `Hello ${name},` : 'Hello,',
      `Thank you for your question to ${orgName}:`,
      `“${text(data.question)}”`,
      'Please confirm your e-mail address so that it can be shown and answered.',
    ],
    safeLink(data.confirm_url),
    'Confirm my question',
    'If you did not ask this, ignore this message: nothing will be shown.',
  );
}

/** `question_for_buyer`: a customer whose order held the product is asked to answer. */
function questionForBuyer({ orgName, data }: TemplateInput): RenderedEmail {
  const name = text(data.buyer_name).split(/\s+/)[0] ?? '';
  return render(
    orgName,
    `A shopper has a question about ${text(data.product_name) || 'a product you bought'}`,
    [
      name ? `Hello ${name},` : 'Hello,',
      `You bought ${text(data.product_name)} from ${orgName}. Another shopper asks:`,
      `“${text(data.question)}”`,
      'Your answer is published with your first name, marked as a verified buyer. The link works once.',
    ],
    safeLink(data.answer_url),
    'Answer the question',
    'If you would rather not answer, ignore this message.',
  );
}

export const QUESTION_TEMPLATES: Record<string, (input: TemplateInput) => RenderedEmail> = {
  question_confirmation: questionConfirmation,
  question_for_buyer: questionForBuyer,
};
