// The review policy page of a business (/p/:slug/policy and its markdown twin; docs/compliance.md):
// the facts it is written from (plaudit.public_review_policy: the business's settings and the
// grounds its statements of reasons named) and the policy itself, written from them as sections of
// plain sentences, so that the page and its twin say the same and each sentence follows a setting.
// The business's own text comes last, as paragraphs of text: whatever it holds, it stays text.
import { PLATFORM_NAMES } from '../imports/formats.ts';
import { ownParagraphs } from '../review-policy-text.ts';
import type { Sql } from './client.ts';
import { MODE_WORDS, type VerificationMode } from './public-transparency.ts';
import { runAsPublic } from './roles.ts';

type Incentive = { type: string; description: string };

export interface ReviewPolicyRow {
  version: string;
  enabled: boolean;
  slug: string;
  name: string;
  forms: Record<VerificationMode, number | string>;
  form_incentives: Incentive[];
  requests_last_12_months: boolean;
  request_incentives_last_12_months: boolean;
  imports: { count: number | string; platforms: string[] };
  grounds: { type: 'policy' | 'law'; text: string; count: number | string }[];
  widget_min_rating: number;
  media_moderation: 'auto' | 'manual';
  own_text: string | null;
}

/** The facts of `slug` to show: null for an unknown slug, `absent` (with its version) while its profile is off. */
export async function loadReviewPolicy(
  sql: Sql,
  slug: string,
): Promise<ReviewPolicyRow | { version: string; absent: true } | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ p: ReviewPolicyRow | null }[]>`select plaudit.public_review_policy(${slug}) as p`,
  );
  const p = row.p;
  if (!p) return null;
  return p.enabled ? p : { version: p.version, absent: true as const };
}

/** A section of the policy: a heading and its paragraphs, or a list after them. */
export interface PolicySection {
  id: string;
  heading: string;
  paragraphs: string[];
  list?: string[];
}

const INCENTIVE_WORDS: Record<string, string> = {
  discount: 'a discount',
  gift: 'a gift',
  points: 'loyalty points',
  free_product: 'a free product',
  sweepstake: 'an entry into a prize draw',
  other: 'a reward',
};

/** A name's possessive: Acme's, Fjord Roasters'. */
const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

/** The policy, section by section, written from the facts. */
export function reviewPolicy(p: ReviewPolicyRow): PolicySection[] {
  const name = p.name;
  const its = possessive(name);
  const modes = (Object.keys(MODE_WORDS) as VerificationMode[]).filter((m) => Number(p.forms[m]) > 0);
  const checksPurchase = modes.includes('purchase_proof') || p.requests_last_12_months;
  const verifies = modes.some((m) => m !== 'none') || p.requests_last_12_months;
  const imported = Number(p.imports.count);
  const sections: PolicySection[] = [
    {
      id: 'about',
      heading: 'About this policy',
      paragraphs: [
        `This page says how ${name} collects, checks, publishes and hides customer reviews, as EU consumer law (the Unfair Commercial Practices Directive as amended by the Omnibus Directive 2019/2161) and the UK's rules on fake reviews (the Digital Markets, Competition and Consumers Act 2024, with the CMA's guidance) ask a business to tell its customers, and how to report a review or appeal a decision under the EU Digital Services Act. It is written from ${its} settings as they are now: when they change, this page changes with them.`,
      ],
    },
    {
      id: 'verification',
      heading: 'How reviews are checked',
      paragraphs: [
        modes.length === 0
          ? `${name} has no review form open at the moment.`
          : `Reviews written on ${its} review forms are ${modes.map((m) => MODE_WORDS[m]).join('; or ')}.`,
        p.requests_last_12_months
          ? `${name} also invites its customers to review an order they made; a review written through such an invitation, from the address the invitation was sent to, is marked as verified by the invitation.`
          : `${name} has not sent review invitations to its customers in the last 12 months.`,
        !verifies
          ? `${name} does not check reviews before they are published: each one is marked unverified.`
          : checksPurchase
          ? 'A review marked verified passed one of these checks, and its label says which one. A review marked unverified passed none.'
          : `${name} does not check that a reviewer bought from it: a review marked verified passed one of the checks above, which do not prove a purchase, and a review marked unverified passed none.`,
        'Reviews that fail their check are not published.',
      ],
    },
    {
      id: 'publication',
      heading: 'Which reviews are published, and in what order',
      paragraphs: [
        `Every review that passes its check is published, whatever its rating. ${name} cannot change what a reviewer wrote; it can reply publicly, and it can hide a review only as described below.`,
        `Reviews are listed newest first unless the reader picks another order. Nothing is ordered by payment. ${
          p.widget_min_rating > 1
            ? `${its} website widget shows only reviews rated ${p.widget_min_rating} stars or more; the review pages show every published review.`
            : `${its} website widget shows reviews of every rating.`
        }`,
        p.media_moderation === 'manual'
          ? 'Photos and videos sent with a review are shown only after a person at the business has looked at them.'
          : 'Photos and videos sent with a review are shown with it, unless the business hides them.',
      ],
    },
    {
      id: 'hidden',
      heading: 'What is hidden, and why',
      paragraphs: [
        `${name} hides a published review only for a stated reason: a clause of this policy it breaks, or a law. Each hide is recorded in a tamper-evident trail, counted on the transparency report, and its author, when they left an e-mail address, is sent a statement of reasons: what was hidden, on what ground, whether automated means decided, and how to appeal (EU Digital Services Act, Art. 17).`,
        p.grounds.length
          ? 'The grounds named in the last 12 months, most used first:'
          : 'No review was hidden in the last 12 months.',
      ],
      list: p.grounds.map((g) =>
        `${g.type === 'law' ? 'Law' : 'Policy'}: ${g.text} (${Number(g.count)} ${
          Number(g.count) === 1 ? 'review' : 'reviews'
        })`
      ),
    },
    {
      id: 'incentives',
      heading: 'Incentives',
      paragraphs: [
        ...(p.form_incentives.length
          ? [
            `${name} offers a reward for a review written on some of its forms: ${
              p.form_incentives.map((i) => `${INCENTIVE_WORDS[i.type] ?? 'a reward'} (${i.description})`).join('; ')
            }.`,
          ]
          : [`${name} offers no reward for a review written on its forms.`]),
        ...(p.request_incentives_last_12_months
          ? [`Some of ${its} review invitations of the last 12 months offered a reward for a review.`]
          : []),
        'Every review written for a reward is labelled as incentivized wherever it is shown, and a reward never depends on the rating or on what the review says.',
      ],
    },
    {
      id: 'imports',
      heading: 'Reviews from other platforms',
      paragraphs: [
        imported > 0
          ? `${imported} ${imported === 1 ? 'review was' : 'reviews were'} imported from ${
            p.imports.platforms.map((x) => PLATFORM_NAMES[x as keyof typeof PLATFORM_NAMES] ?? x).join(', ')
          }. They keep their original dates, are labelled with the platform they came from, and are never shown as verified here, whatever that platform said.`
          : `No reviews were imported from other platforms: every review here was written for ${name}.`,
      ],
    },
    {
      id: 'unusual',
      heading: 'Fake reviews, sudden bursts and duplicates',
      paragraphs: [
        `Reviews must describe a real experience of ${name} or its products, written by the person who had it. Reviews written for pay without saying so, or by the business about itself, are not allowed.`,
        'When an unusual number of low-rated reviews of the business or of one product arrives within an hour, from many addresses and far above the usual rate, new reviews of it are held for a person to check, and the review pages say so. A review whose text is the same as, or nearly the same as, another recent review, or whose order number was already used for a review of the same product, is held too. Held reviews are never published or deleted automatically: a person approves or rejects each one.',
      ],
    },
    {
      id: 'report',
      heading: 'Report a review',
      paragraphs: [
        'Every published review has a Report link. Say whether you think the review is illegal (and under which law) or breaks this policy, and confirm that your report is accurate and made in good faith. If you leave your e-mail address you receive an acknowledgement at once and the decision when it is made. Your address is never shown to the reviewer or the public (EU Digital Services Act, Art. 16).',
      ],
    },
    {
      id: 'appeal',
      heading: 'If your review was hidden',
      paragraphs: [
        'The statement of reasons sent to you has a link to appeal. A person at the business reads your appeal and decides; if they reverse the decision, your review is shown again. You are told the outcome by e-mail (EU Digital Services Act, Art. 20).',
      ],
    },
  ];
  const own = ownParagraphs(p.own_text);
  if (own.length) sections.push({ id: 'own', heading: `More from ${name}`, paragraphs: own });
  return sections;
}
