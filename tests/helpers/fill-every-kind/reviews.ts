// Reviews and what shapes them: forms with custom fields and incentives, orders for purchase
// proof, submissions of every verification path, moderation, replies and the public profile.
import { accepted, expectAnswer, LINK_BASE, newestMail, type Org, type Submitted, type Tx } from './context.ts';

/** A moderation chain head as someone outside the database keeps it: the entry count and the last hash. */
export interface KeptHead {
  entries: number;
  head: string;
}

export interface Forms {
  open: string;
  email: string;
  manual: string;
  proof: string;
}

export interface Reviews {
  /** Public, answered by the business. */
  answered: Submitted;
  /** Verified by its order. */
  bought: Submitted;
  /** Hidden by moderation. */
  hidden: Submitted;
  /** The moderation chain's head before the later moderation, kept as a customer would keep it. */
  keptHead: KeptHead;
}

type Incentive = { type: string; description: string };

const CUSTOM_FIELDS = [
  { key: 'product', label: 'Product', type: 'select', options: ['Mug', 'Tee'], required: true },
  { key: 'recommend', label: 'Would you recommend us?', type: 'boolean' },
  { key: 'visits', label: 'Visits', type: 'number' },
  { key: 'headline', label: 'Headline', type: 'text' },
  { key: 'notes', label: 'Anything else', type: 'textarea' },
];

/** Whether the release's tables take incentives: they came after release 0.2.0. */
export const takesIncentives = (org: Org, table: string) => org.schema.has(table, 'incentive');

/**
 * Review forms: one per verification mode (the open one with custom fields and an incentive), a
 * paused one, a deleted one.
 */
export async function fillForms(org: Org): Promise<Forms> {
  const form = (name: string, mode: string, fields: unknown[] = [], active = true, incentive?: Incentive) =>
    org.tenant(async (tx) => {
      const row = {
        org_id: org.id,
        name,
        verification_mode: mode,
        custom_fields: tx.json(fields as never),
        is_active: active,
      };
      const offered = incentive && takesIncentives(org, 'review_forms') ? { incentive: tx.json(incentive) } : {};
      const [f] = await tx<{ id: string }[]>`insert into plaudit.review_forms ${
        tx({ ...row, ...offered })
      } returning id`;
      return f.id;
    });
  const forms = {
    open: await form('After purchase', 'none', CUSTOM_FIELDS, true, {
      type: 'discount',
      description: '10% off your next order',
    }),
    email: await form('Confirmed by e-mail', 'email'),
    manual: await form('Approved by hand', 'manual'),
    proof: await form('Verified buyers', 'purchase_proof'),
  };
  await form('Paused', 'none', [], false);
  const deleted = await form('Old form', 'none');
  await org.tenant((tx) => tx`update plaudit.review_forms set deleted_at = now() where id = ${deleted}`);
  return forms;
}

/** Orders for purchase proof, loaded as the API loads them; one with the buyer's address. */
export async function fillOrders(org: Org) {
  await org.tenant((tx) =>
    tx`select * from plaudit.upsert_orders(${org.id}, ${
      tx.json([
        { order_id: 'A-1001', email: `buyer@${org.domain}`, purchased_at: '2026-11-20T10:00:00Z' },
        { order_id: 'A-1002' },
      ])
    })`
  );
}

interface Submission {
  rating?: number;
  title?: string | null;
  content?: string;
  fields?: unknown;
  orderId?: string | null;
  /** The product reviewed, by its external id (from the release that has a catalog). */
  product?: string;
}

/**
 * A review through the public submission (POST /reviews, the hosted form), as plaudit_public;
 * `extra` runs in the same statement's transaction, as the API issues the upload token there.
 */
export async function submitReview(
  org: Org,
  formId: string,
  reviewer: string,
  s: Submission = {},
  extra?: (tx: Tx, review: Submitted) => Promise<unknown>,
): Promise<Submitted> {
  const address = org.nextAddress();
  const content = s.content ?? `Review from ${address} of ${org.slug}: the tea arrived warm and the mug did not leak.`;
  return await org.publicly(async (tx) => {
    const product = s.product ? tx`, p_product_external_id => ${s.product}` : tx``;
    const r = accepted(
      'submit_review',
      await tx<Submitted[]>`
        select * from plaudit.submit_review(
          p_rate_bucket => ${`ip:${address}`}, p_rate_limit => 1000, p_form_id => ${formId},
          p_rating => ${s.rating ?? 5}, p_title => ${s.title ?? null}, p_content => ${content},
          p_reviewer_name => ${reviewer.split('@')[0]}, p_reviewer_email => ${reviewer},
          p_custom_fields => ${s.fields ? tx.json(s.fields as never) : null}, p_order_id => ${s.orderId ?? null},
          p_verify_url_base => ${LINK_BASE}, p_honeypot => false ${product})`,
    );
    await extra?.(tx, r);
    return r;
  });
}

/** Reviews of every verification path, their moderation and replies. */
export async function fillReviews(org: Org, forms: Forms): Promise<Reviews> {
  const at = (name: string) => `${name}@${org.domain}`;
  const answered = await submitReview(org, forms.open, at('ann'), {
    title: 'Lovely mug',
    fields: { product: 'Mug', recommend: true, visits: 3, headline: ' Great ', notes: 'Fast shipping' },
  });
  const hidden = await submitReview(org, forms.open, at('bob'), { rating: 2, fields: { product: 'Tee' } });
  await submitReview(org, forms.email, at('cleo'), { rating: 4 }); // verified below, by its e-mailed link
  await submitReview(org, forms.email, at('dan'), { rating: 3 }); // stays pending, its token unused
  const bought = await submitReview(org, forms.proof, at('buyer'), { orderId: 'A-1001' });
  expectAnswer('submit_review with a matching order', bought.verification_status, 'verified');
  const laterProof = await submitReview(org, forms.proof, at('eve'), { rating: 4 });
  const approved = await submitReview(org, forms.manual, at('fay'), { rating: 5 });
  const rejected = await submitReview(org, forms.manual, at('gus'), { rating: 1 });

  const verifyMail = await newestMail(org.sql, 'review_verification', at('cleo'));
  const [verified] = await org.publicly((tx) =>
    tx`select * from plaudit.verify_review_by_token(${verifyMail.data.token})`
  );
  expectAnswer('verify_review_by_token', verified.outcome, 'verified');
  await org.tenant(async (tx) => {
    await tx`select id from plaudit.verify_review_by_order(${laterProof.id}, 'A-1002', ${org.admin.id})`;
    await tx`select id from plaudit.approve_review(${approved.id}, 'Receipt checked', ${org.admin.id})`;
    await tx`select id from plaudit.reject_review(${rejected.id}, 'Not a customer', ${org.admin.id})`;
  });

  // Moderation, by a key and by a signed-in member; the head as it stands is kept, then more follows.
  await moderate(org, hidden.id, 'hide', 'Off topic');
  await moderate(org, hidden.id, 'unhide', null, `member:${org.ownerMemberId}`);
  const [{ head }] = await org.sql<{ head: KeptHead }[]>`select plaudit.moderation_chain_head(${org.id}) as head`;

  // Replies: one written and edited, one written and withdrawn.
  await org.tenant(async (tx) => {
    await tx`select * from plaudit.reply_to_review(${answered.id}, 'Thank you!', ${org.keyActor})`;
    await tx`select * from plaudit.reply_to_review(${answered.id}, 'Thank you, Ann!', ${org.keyActor})`;
    await tx`select * from plaudit.reply_to_review(${approved.id}, 'Glad you liked it.', ${org.keyActor})`;
    await tx`select plaudit.withdraw_review_reply(${approved.id}, ${org.keyActor})`;
  });
  await moderate(org, hidden.id, 'hide', 'Shares a phone number');
  return { answered, bought, hidden, keptHead: { entries: Number(head.entries), head: head.head } };
}

/** Hides or shows a review, by the admin key unless `actor` says who. */
export async function moderate(org: Org, reviewId: string, action: string, reason: string | null, actor?: string) {
  await org.tenant(
    (tx) => tx`select id from plaudit.moderate_review(${reviewId}, ${action}, ${reason}, ${actor ?? org.keyActor})`,
    actor,
  );
}

/** The public profile and its widget, with the Google feed and media moderation where the release has them. */
export async function fillProfile(org: Org) {
  const later = {
    ...(org.schema.has('public_profiles', 'google_product_feed') ? { google_product_feed: true } : {}),
    ...(org.schema.has('public_profiles', 'media_moderation') ? { media_moderation: org.mediaModeration } : {}),
  };
  await org.tenant((tx) =>
    tx`insert into plaudit.public_profiles ${
      tx({
        org_id: org.id,
        display_name: `${org.slug} tea`,
        description: 'Tea and mugs since 1999.',
        website: `https://${org.domain}`,
        logo_url: `https://${org.domain}/logo.png`,
        embed_layout: 'grid',
        embed_theme: 'dark',
        embed_max_reviews: 6,
        embed_min_rating: 3,
        ...later,
      })
    } on conflict (org_id) do nothing`
  );
}
