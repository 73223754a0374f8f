// The reviewer's appeal mails (EU DSA Art. 20): the acknowledgement of an appeal, and the decision
// a member took on it, with the reasons and, as the statement of reasons does, where the business's
// review policy is (when the mail's data names the slug). Every value from data is escaped in HTML.
import { escapeHtml } from '../html.ts';
import { layout, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';
import { policyLine } from './statement-template.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function render(
  orgName: string,
  subject: string,
  lines: string[],
  after: string,
  policy: ReturnType<typeof policyLine> = null,
): RenderedEmail {
  const footer = `Sent on behalf of ${orgName} by Plaudit.`;
  return {
    subject,
    text: plainText([...lines, ...(policy ? [policy.text] : []), '', after], [footer]),
    html: layout(
      'en',
      subject,
      `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}\n${policy ? `${policy.html}\n` : ''}${
        smallPrint(after)
      }`,
      escapeHtml(footer),
    ),
  };
}

/** `appeal_received`: the appeal is taken; a person will decide it. */
export function appealReceivedEmail({ orgName, data }: TemplateInput): RenderedEmail {
  return render(orgName, `We received your appeal to ${orgName}`, [
    'Hello,',
    `${orgName} received your appeal against hiding your review. A person will look at it and you will be told the decision.`,
    `Your appeal: ${text(data.text)}`,
    `Reference: ${text(data.appeal_id)}`,
  ], 'The decision will not be taken by automated means.');
}

/** `appeal_decided`: the decision on the appeal, with its reasons. */
export function appealDecidedEmail({ orgName, data, publicUrl }: TemplateInput): RenderedEmail {
  const reversed = data.status === 'reversed';
  return render(
    orgName,
    `Decision on your appeal to ${orgName}`,
    [
      'Hello,',
      reversed
        ? `${orgName} reversed its decision: your review is shown again.`
        : `${orgName} upheld its decision: your review stays hidden.`,
      `Their reasons: ${text(data.resolution)}`,
      `Reference: ${text(data.appeal_id)}`,
    ],
    reversed
      ? ''
      : 'You may turn to an out-of-court dispute settlement body (EU Digital Services Act, Art. 21) or a court.',
    policyLine(orgName, publicUrl, data.org_slug),
  );
}

export const APPEAL_TEMPLATES = {
  appeal_received: appealReceivedEmail,
  appeal_decided: appealDecidedEmail,
};
