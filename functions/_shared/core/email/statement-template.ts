// `statement_of_reasons`: the reviewer's statement of reasons (EU DSA Art. 17) when their review is
// hidden: what was restricted, the facts, whether automated means decided, the ground (the
// business's policy or the law named), and how to appeal (Art. 20), through a link that carries a
// single-purpose token, and where the business's review policy is (its page, /p/:slug/policy, when
// the mail's data names the slug). Every value from data is escaped in HTML.
import { DAY } from '../day.ts';
import { escapeHtml, safeLink } from '../html.ts';
import { button, fallbackLink, layout, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The appeal form's address for a statement's token, under the hosted pages' public address. */
export function appealUrl(publicUrl: string | undefined, token: string): string {
  return `${(publicUrl ?? '').replace(/\/+$/, '')}/appeals/${encodeURIComponent(token)}`;
}

/** The business's review policy page, or null without its slug. */
export function policyPageUrl(publicUrl: string | undefined, slug: string): string | null {
  return slug ? `${(publicUrl ?? '').replace(/\/+$/, '')}/p/${encodeURIComponent(slug)}/policy` : null;
}

/**
 * The line that names the business's review policy page, as text and as HTML (a link), for the
 * reviewer's mails (this statement, the appeal's decision); null without the slug (the mail's data
 * names it only while the profile, and so the page, is public).
 */
export function policyLine(
  orgName: string,
  publicUrl: string | undefined,
  slug: unknown,
): { text: string; html: string } | null {
  const url = policyPageUrl(publicUrl, text(slug));
  if (!url) return null;
  const label = `${orgName}'s review policy: `;
  const href = escapeHtml(safeLink(url));
  return { text: `${label}${safeLink(url)}`, html: `<p>${escapeHtml(label)}<a href="${href}">${href}</a></p>` };
}

/** The day an appeal may be made until (data.appeal_until, six months from the statement), as words; '' without it. */
function appealDay(value: unknown): string {
  const at = new Date(text(value));
  return Number.isNaN(at.getTime()) ? '' : DAY.format(at);
}

export function statementOfReasonsEmail({ orgName, data, publicUrl }: TemplateInput): RenderedEmail {
  const ground = (data.ground ?? {}) as Record<string, unknown>;
  const review = (data.review ?? {}) as Record<string, unknown>;
  const name = text(data.reviewer_name).trim();
  const link = safeLink(appealUrl(publicUrl, text(data.appeal_token)));
  const subject = `Your review on ${orgName} has been hidden: the reasons`;
  const groundLine = ground.type === 'law' ? `Ground: the law — ${text(ground.text)}` : `Ground: ${text(ground.text)}`;
  const facts = [
    `What was restricted: your review${text(review.title) ? ` “${text(review.title)}”` : ''} (${
      Number(review.rating) || '?'
    } out of 5 stars) is hidden: it is no longer shown to anyone. It was not deleted.`,
    `Facts: ${text(data.facts)}`,
    groundLine,
    data.automated === true
      ? 'Automated means: the decision was taken automatically.'
      : 'Automated means: none; a person at the business decided.',
    `Date: ${text(data.created_at)}`,
    `Reference: ${text(data.id)}`,
  ];
  const until = appealDay(data.appeal_until);
  const appeal = `You can appeal this decision through ${orgName}'s complaint form${
    until ? ` until ${until}` : ''
  }. A person will look at your appeal and you will be told the outcome. You may also turn to an out-of-court dispute settlement body or a court.`;
  const policy = policyLine(orgName, publicUrl, data.org_slug);
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const intro = `${orgName} hid your review. The law (EU Digital Services Act, Art. 17) asks them to tell you why.`;
  const body = plainText([
    greeting,
    '',
    intro,
    '',
    ...facts,
    '',
    appeal,
    '',
    `Appeal: ${link}`,
    ...(policy ? ['', policy.text] : []),
  ], [
    `Sent on behalf of ${orgName} by Plaudit.`,
  ]);
  const html = layout(
    'en',
    subject,
    `
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<ul>${facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>
<p>${escapeHtml(appeal)}</p>
${button(link, 'Appeal the decision')}
${fallbackLink('If the button does not work, open this link:', link)}
${policy?.html ?? ''}
${smallPrint('The link works for this decision only. Your address is not shown to anyone who reported the review.')}`,
    escapeHtml(`Sent on behalf of ${orgName} by Plaudit.`),
  );
  return { subject, text: body, html };
}
