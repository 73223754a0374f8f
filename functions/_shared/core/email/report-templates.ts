// The reporter's mails (EU DSA Art. 16): the acknowledgement of a report, sent at once, and the
// business's decision, sent when it resolves the report. They quote the review as it was
// published and the report as it was made; they never carry the reviewer's or anyone's address.
// Every value from data is escaped in HTML.
import { escapeHtml } from '../html.ts';
import { layout, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

const KIND = {
  illegal: 'Illegal content',
  policy: "Against the business's review policy",
} as Record<string, string>;

const DECISION = {
  hidden: 'The review has been hidden: it is no longer shown.',
  kept: 'The review stays published: the business did not find that it should be hidden.',
} as Record<string, string>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The facts of the report, as lines of plain text: the review, the kind, ground and reason, when. */
function reportFacts(data: Record<string, unknown>): string[] {
  const review = (data.review ?? {}) as Record<string, unknown>;
  const rating = Number(review.rating);
  const lines = [
    `Review: ${Number.isInteger(rating) ? `${rating} out of 5 stars` : ''}${
      text(review.title) ? ` — “${text(review.title)}”` : ''
    }`,
    `Text: “${text(review.excerpt)}${text(review.excerpt).length >= 200 ? '…' : ''}”`,
    `Kind: ${KIND[text(data.kind)] ?? KIND.policy}`,
  ];
  if (text(data.legal_ground)) lines.push(`Legal ground you named: ${text(data.legal_ground)}`);
  lines.push(`Reason: ${text(data.reason).replaceAll('_', ' ')}`, `Received: ${text(data.received_at)}`);
  lines.push(`Reference: ${text(data.report_id)}`);
  return lines;
}

const FOOTER = (org: string) => `Sent on behalf of ${org} by Plaudit.`;

function render(orgName: string, subject: string, intro: string[], facts: string[], after: string[]): RenderedEmail {
  const body = plainText([...intro, '', ...facts, '', ...after], [FOOTER(orgName)]);
  const html = layout(
    'en',
    subject,
    `
${intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<ul>${facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>
${after.map((p) => smallPrint(p)).join('\n')}`,
    escapeHtml(FOOTER(orgName)),
  );
  return { subject, text: body, html };
}

/** `report_received`: the acknowledgement of a report, sent when it is taken. */
export function reportReceivedEmail({ orgName, data }: TemplateInput): RenderedEmail {
  return render(
    orgName,
    `We received your report of a review on ${orgName}`,
    [
      'Hello,',
      `${orgName} received your report of a review. A person will look at it and you will get another message with the decision.`,
    ],
    reportFacts(data),
    ['Your address is used only for these two messages: it is not shown to the reviewer or published.'],
  );
}

/** `report_decided`: the business's decision on a report, with its reasons. */
export function reportDecidedEmail({ orgName, data }: TemplateInput): RenderedEmail {
  const decision = DECISION[text(data.decision)] ?? DECISION.kept;
  return render(
    orgName,
    `Decision on your report of a review on ${orgName}`,
    ['Hello,', `${orgName} decided on your report. ${decision}`, `Their reasons: ${text(data.resolution)}`],
    [...reportFacts(data), `Decided: ${text(data.decided_at)}`],
    [
      'If you believe the content is illegal and disagree with the decision, you may turn to the authorities or courts of your country, or to an out-of-court dispute settlement body (EU Digital Services Act, Art. 21).',
    ],
  );
}

export const REPORT_TEMPLATES = {
  report_received: reportReceivedEmail,
  report_decided: reportDecidedEmail,
};
