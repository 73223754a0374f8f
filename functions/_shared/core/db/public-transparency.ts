// The transparency report of a business (docs/trust.md, "Transparency"): the figures as the
// database counts them (plaudit.public_transparency), and the report the API answers and the page
// shows, in one place so that both say the same. Every read runs as plaudit_public.
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

type Counts<K extends string> = Record<K, number | string>;

export type TransparencyRow = {
  version: string;
  enabled: boolean;
  org_id: string;
  slug: string;
  name: string;
  since: string;
  received_all_time: number | string;
  published_all_time: number | string;
  recent: Counts<
    | 'received'
    | 'published'
    | 'verified'
    | 'unverified'
    | 'by_email'
    | 'by_purchase_proof'
    | 'by_manual'
    | 'by_invitation'
    | 'incentivized'
    | 'imported'
    | 'hidden'
    | 'pending'
    | 'rejected'
  >;
  hidden_by_month: { month: string; hidden: number | string; reasons: { reason: string; count: number | string }[] }[];
  forms: Counts<VerificationMode>;
  widget_min_rating: number;
  moderation_chain: { entries: number | string; head: string | null };
};

export type VerificationMode = 'none' | 'email' | 'purchase_proof' | 'manual';

/** The orders a reader may pick, the first the default (the API's `sort`; the pages offer all but `helpful`). */
export const READER_ORDERS = ['newest', 'oldest', 'highest', 'lowest', 'helpful'] as const;

/** The figures of `slug` (enabled or not), or null for an unknown slug. */
export async function loadTransparency(sql: Sql, slug: string): Promise<TransparencyRow | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ t: TransparencyRow | null }[]>`select plaudit.public_transparency(${slug}) as t`,
  );
  return row.t;
}

/** The figures of `slug` to show: null for an unknown slug, `absent` (with its version) while its profile is off. */
export async function loadShownTransparency(
  sql: Sql,
  slug: string,
): Promise<TransparencyRow | { version: string; absent: true } | null> {
  const t = await loadTransparency(sql, slug);
  if (!t) return null;
  return t.enabled ? t : { version: t.version, absent: true as const };
}

/** The version of everything the report shows: its ETag comes from it. */
export async function transparencyVersion(sql: Sql, slug: string): Promise<string | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ v: string | null }[]>`select plaudit.public_transparency_version(${slug}) as v`,
  );
  return row.v;
}

const share = (count: number, of: number) => ({
  count,
  share: of > 0 ? Math.round((count / of) * 10_000) / 10_000 : null,
});

/** When a review of a form in each verification mode is published, in plain words (the policy page says them too). */
export const MODE_WORDS: Record<VerificationMode, string> = {
  none: 'published as soon as they are written, marked unverified',
  email: 'published once the reviewer confirms their e-mail address',
  purchase_proof: 'published once their order number matches an order of the business',
  manual: 'published only after the business approves each one',
};

/** In plain words, when reviews on the business's active forms are published. */
function publicationStatement(forms: Record<VerificationMode, number>): string {
  const modes = (Object.keys(MODE_WORDS) as VerificationMode[]).filter((m) => forms[m] > 0);
  const how = modes.length === 0
    ? 'The business has no active review form.'
    : `Reviews written on this business's forms are ${modes.map((m) => MODE_WORDS[m]).join('; or ')}.`;
  return `${how} A review written through a review request's link, with the address the request went to, is verified by the invitation. Reviews that fail verification are not published. The business can hide a published review only with a recorded reason, kept in a tamper-evident trail; the hides of each month are counted here by reason.`;
}

function orderingStatement(widgetMinRating: number): string {
  const widget = widgetMinRating > 1
    ? `The business's website widget shows only reviews rated ${widgetMinRating} or more; the profile page and the API show every published review.`
    : "The business's website widget shows reviews of every rating.";
  return `Reviews are listed newest first unless the reader picks another order (oldest first, highest or lowest rating first, most helpful first). Nothing is ordered by payment, and nothing by rating unless the reader picks that order. ${widget}`;
}

/** The report as the API answers it and the page shows it. */
export function transparencyReport(t: TransparencyRow, publicUrl: string) {
  const n = Number;
  const r = t.recent;
  const published = n(r.published);
  const forms = {
    none: n(t.forms.none),
    email: n(t.forms.email),
    purchase_proof: n(t.forms.purchase_proof),
    manual: n(t.forms.manual),
  };
  const entries = n(t.moderation_chain.entries);
  const head = t.moderation_chain.head;
  const check = `${publicUrl}/api/v1/organizations/${t.org_id}/moderation-chain?entries=${entries}&head=${head ?? ''}`;
  const receivedAll = n(t.received_all_time);
  const publishedAll = n(t.published_all_time);
  return {
    slug: t.slug,
    name: t.name,
    url: `${publicUrl}/p/${encodeURIComponent(t.slug)}/transparency`,
    period: { since: t.since, months: 12 as const },
    received: { all_time: receivedAll, last_12_months: n(r.received) },
    published: { all_time: publishedAll, last_12_months: published },
    not_published_last_12_months: { pending: n(r.pending), rejected: n(r.rejected), hidden: n(r.hidden) },
    verification_last_12_months: {
      email: n(r.by_email),
      purchase_proof: n(r.by_purchase_proof),
      manual: n(r.by_manual),
      invitation: n(r.by_invitation),
      unverified: n(r.unverified),
    },
    shares_last_12_months: {
      verified: share(n(r.verified), published),
      incentivized: share(n(r.incentivized), published),
      imported: share(n(r.imported), published),
    },
    hidden_by_month: t.hidden_by_month.map((m) => ({
      month: m.month,
      hidden: n(m.hidden),
      reasons: m.reasons.map((x) => ({ reason: x.reason, count: n(x.count) })),
    })),
    ordering: {
      default: READER_ORDERS[0],
      orders: [...READER_ORDERS],
      by_payment: false as const,
      by_rating_only_when_chosen: true as const,
      widget_min_rating: t.widget_min_rating,
      statement: orderingStatement(t.widget_min_rating),
    },
    publication: {
      all_published: receivedAll === publishedAll,
      forms_by_verification_mode: forms,
      statement: publicationStatement(forms),
    },
    moderation_chain: {
      entries,
      head,
      check_url: check,
      how_to_verify:
        `Every hide, unhide, verification and reply is an entry of this business's moderation trail, each entry hashed with the one before it (SHA-256). Keep the number of entries (${entries}) and the head hash shown here, or a copy of this page. Later, anyone holding a read key of this business (an auditor, say) can open the check link: it answers whether entry ${entries} still has this hash. Rewriting or removing any entry up to it changes the hash, so no one can quietly rewrite this history. Heads kept by others (webhook receivers, exports) can be checked the same way.`,
      docs_url: `${publicUrl}/api/v1/docs`,
    },
  };
}

export type TransparencyReport = ReturnType<typeof transparencyReport>;
