import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { apiErrorFromDb, translateDbErrors } from '../http/db-errors.ts';
import type { Sql, Tx } from '../../core/db/client.ts';
import { ApiError } from '../http/errors.ts';
import type { CredentialReadArgs } from '../http/env.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { ChainHead, errorResponseSpec, iso, json, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { publicCors } from '../middleware/public-access/index.ts';
import { setRateLimitHeaders, submissionBucket, tooManyRequests } from '../middleware/rate-limit/index.ts';
import { type CredentialReadRow, orgRoute, router } from './define.ts';
import { answerJsonText, type JsonText, jsonText } from '../http/json-text.ts';
import { runAsPublic } from '../../core/db/roles.ts';

const ChainQuery = z.object({
  entries: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional()
    .openapi({ description: 'The entry count of a head kept earlier.' }),
  head: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal characters').optional()
    .openapi({ description: 'The head (hex SHA-256) kept earlier.' }),
});

const ChainStatus = ChainHead.extend({
  valid: z.boolean().openapi({ description: 'The trail verifies, and matches the earlier head when one was given.' }),
  problem: z.string().nullable().openapi({ description: 'What does not verify, or null.' }),
  earlier_head: z.object({
    entries: z.number().int(),
    head: z.string(),
    matches: z.boolean(),
    problem: z.string().nullable(),
  }).nullable().openapi({ description: 'The check against the head given in the query, or null.' }),
}).openapi('ModerationChainStatus');

export const VerificationStatus = z.enum(['unverified', 'pending', 'verified', 'rejected']).openapi({
  description:
    '`unverified`: the form does not verify; `pending`: waiting for the e-mail link, a matching order or manual approval; `verified`; `rejected`.',
});

export const VerificationMethod = z.enum(['email', 'purchase_proof', 'manual', 'invitation']);

export const ReviewReply = z.object({
  content: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
}).openapi('ReviewReply');

export const Review = z.object({
  id: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  title: z.string().nullable(),
  content: z.string(),
  reviewer_name: z.string(),
  reviewer_email: z.string(),
  verification_status: VerificationStatus,
  verification_method: VerificationMethod.nullable().openapi({
    description:
      "How the status was decided, once `verified` or `rejected` (null before): `email`, the reviewer's e-mail link; `purchase_proof`, an order number matched a loaded order; `manual`, a member or a key approved or rejected it; `invitation`, written from a review request's link.",
  }),
  verification_at: Timestamp.nullable().openapi({ description: 'When the status was decided; null before.' }),
  is_hidden: z.boolean(),
  created_at: Timestamp,
  form_id: z.string().uuid(),
  custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).openapi({
    description:
      "The reviewer's answers to the form's custom fields, keyed by field key (text, number or boolean by the field's type); `{}` when there are none. Returned to the organization only: public routes, the widget and the profile pages never show them.",
    example: { product: 'Mug', would_recommend: true },
  }),
  reply: ReviewReply.nullable().openapi({ description: "The business's public reply, or null." }),
}).openapi('Review');

export type ReviewBody = z.infer<typeof Review>;

export const REVIEW_NOT_FOUND = 'Review not found';

/**
 * The review of the tenant's transaction as the organization's Review, written by PostgreSQL
 * (plaudit.review_json, the one writer of that shape), or 404.
 */
export async function loadReview(db: Tx, id: string): Promise<JsonText<ReviewBody>> {
  const [row] = await db<{ body: string }[]>`
    select plaudit.review_json(r, (select rr from plaudit.review_replies rr where rr.review_id = r.id)) as body
      from plaudit.reviews r where r.id = ${id}`;
  if (!row) throw new ApiError(404, REVIEW_NOT_FOUND);
  return jsonText(row.body);
}

const ReviewSubmission = z.object({
  form_id: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  title: z.string().trim().max(200).nullable().optional(),
  content: z.string().trim().min(1).max(5000),
  reviewer_name: z.string().trim().min(1).max(200),
  reviewer_email: z.string().trim().max(320).email(),
  custom_fields: z.record(z.string(), z.unknown()).optional()
    .openapi({
      additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
      description:
        "Answers to the form's custom fields, keyed by field key. Keys the form does not define are ignored.",
    }),
  order_id: z.string().trim().min(1).max(200).optional()
    .openapi({ description: "For purchase-proof forms: the order id, checked against the organization's orders." }),
  website_url: z.string().max(2048).optional().openapi({
    description: 'Leave out or empty. A trap for bots: a submission that fills it is answered as usual but not stored.',
  }),
}).openapi('ReviewSubmission', {
  example: {
    form_id: '6f1c2a9e-3b7d-4c5e-9a8b-1d2e3f4a5b6c',
    rating: 5,
    title: 'Lovely mug',
    content: 'Arrived quickly and keeps the coffee warm.',
    reviewer_name: 'Ada L.',
    reviewer_email: 'ada@example.net',
    custom_fields: { product: 'Mug' },
  },
});

const ModerationInput = z.object({
  action: z.enum(['hide', 'unhide']),
  reason: z.string().trim().min(1).max(1000),
}).openapi('ModerationInput', { example: { action: 'hide', reason: 'Contains a phone number' } });

const ReplyInput = z.object({
  content: z.string().trim().min(1).max(5000),
}).openapi('ReplyInput', { example: { content: 'Thank you, Ada! A new courier now delivers in two days.' } });

const ModerationEntry = z.object({
  id: z.string().uuid(),
  action: z.enum(['hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply']),
  reason: z.string().nullable().openapi({ description: "The reason given, or a reply's text." }),
  actor: z.string().openapi({
    description:
      'Who made the change: `api_key:<key id>`, `reviewer:email_link`, or `database:<user>` for a change made in the database directly.',
    example: 'api_key:0b6c2d9e-6f3c-4a51-9d7b-2b1f0e8c4a11',
  }),
  created_at: Timestamp,
}).openapi('ModerationEntry');

const IsoDate = z.string().refine(
  (s) =>
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
  'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
);
const Rating = z.coerce.number().int().min(1).max(5);

const ReviewListQuery = PaginationQuery.extend({
  rating: Rating.optional().openapi({ description: 'Exactly this rating.' }),
  min_rating: Rating.optional().openapi({ description: 'This rating or higher.' }),
  max_rating: Rating.optional().openapi({ description: 'This rating or lower.' }),
  verification_status: VerificationStatus.optional(),
  is_hidden: z.enum(['true', 'false']).optional().openapi({
    description: 'Only hidden (`true`) or only visible (`false`) reviews.',
  }),
  form_id: z.string().uuid().optional().openapi({ description: 'Only reviews submitted through this form.' }),
  startDate: IsoDate.optional().openapi({ description: 'Created on or after (a date means from 00:00 UTC).' }),
  endDate: IsoDate.optional().openapi({ description: 'Created on or before (a date means the whole day, UTC).' }),
  q: z.string().trim().min(1).max(200).optional().openapi({
    description: 'Words that must all appear in the title or text.',
  }),
});

type ListQuery = z.infer<typeof ReviewListQuery>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function listFilters(db: Tx, q: ListQuery) {
  if (q.min_rating !== undefined && q.max_rating !== undefined && q.min_rating > q.max_rating) {
    throw new ApiError(400, 'min_rating: must not be greater than max_rating');
  }
  const start = q.startDate
    ? new Date(DATE_ONLY.test(q.startDate) ? `${q.startDate}T00:00:00Z` : q.startDate)
    : undefined;
  const endDateOnly = q.endDate !== undefined && DATE_ONLY.test(q.endDate);
  // Exclusive upper bound: the day after a date; a date-time includes its whole millisecond
  // (timestamps are stored to the microsecond but shown to the millisecond).
  const end = q.endDate
    ? new Date(endDateOnly ? Date.parse(`${q.endDate}T00:00:00Z`) + 86_400_000 : Date.parse(q.endDate) + 1)
    : undefined;
  if (start && end && start.getTime() >= end.getTime()) {
    throw new ApiError(400, 'startDate: must not be after endDate');
  }
  const conditions = [];
  if (q.rating !== undefined) conditions.push(db`rating = ${q.rating}`);
  if (q.min_rating !== undefined) conditions.push(db`rating >= ${q.min_rating}`);
  if (q.max_rating !== undefined) conditions.push(db`rating <= ${q.max_rating}`);
  if (q.verification_status) conditions.push(db`verification_status = ${q.verification_status}`);
  if (q.is_hidden) conditions.push(q.is_hidden === 'true' ? db`is_hidden` : db`not is_hidden`);
  if (q.form_id) conditions.push(db`form_id = ${q.form_id}`);
  if (start) conditions.push(db`created_at >= ${start}`);
  if (end) conditions.push(db`created_at < ${end}`);
  if (q.q) conditions.push(db`search @@ websearch_to_tsquery('simple', ${q.q})`);
  return conditions;
}

/**
 * A page of the tenant's reviews, newest first, as the response body. The page's ids are found
 * first (an index-only walk, however deep the page), then only those rows are read and written as
 * JSON by PostgreSQL (plaudit.review_json, the same bytes JSON.stringify wrote), which the API
 * passes through without parsing. An unfiltered list takes its total from the statistics
 * counter, never from counting.
 */
async function listReviews(db: Tx, q: ListQuery): Promise<JsonText<ReviewPage>> {
  const conditions = listFilters(db, q);
  const where = conditions.length ? conditions.reduce((a, b) => db`${a} and ${b}`) : db`true`;
  // Page 1, by far the most read, carries its LIMIT as a number (at most 100 texts): an unfiltered
  // first page then has no parameter left and PostgreSQL keeps its plan, where the login's
  // force_custom_plan (kept for deep pages) planned it afresh on every request, at 60 % of the
  // statement's time (pg_stat_statements, docs/benchmarks.md).
  const window = q.page === 1 ? db.unsafe(`limit ${Number(q.limit)}`) : db`limit ${q.limit} offset ${offset(q)}`;
  const [[{ items }], [{ total }]] = await Promise.all([
    db<{ items: string }[]>`
      select coalesce(string_agg(plaudit.review_json(r, rr), ',' order by page.created_at desc, page.id desc), '')
             as items
      from (select id, created_at from plaudit.reviews where ${where}
            order by created_at desc, id desc ${window}) page
      join plaudit.reviews r on r.id = page.id
      left join plaudit.review_replies rr on rr.review_id = r.id`,
    conditions.length
      ? db<{ total: number }[]>`select count(*)::integer as total from plaudit.reviews where ${where}`
      : db<{ total: number }[]>`
          select coalesce(sum(total_count), 0)::integer as total from plaudit.review_statistics`,
  ]);
  return jsonText(`{"data":[${items}],"meta":${JSON.stringify(paginate([], total, q).meta)}}`);
}

type ReviewPage = z.infer<ReturnType<typeof Paginated<typeof Review>>>;

/** The list's answer: the body PostgreSQL wrote, as JSON. */
const listAnswer = async (c: Context, db: Tx, q: ListQuery) => answerJsonText(c, await listReviews(db, q));

const listDescription =
  'Newest first. Filters combine with AND. `meta.total` of an unfiltered list comes from a counter kept by the database.';

type SubmissionRow = {
  rate_allowed: boolean;
  rate_remaining: number;
  rate_reset: string;
  error_code: string | null;
  error_message: string | null;
  /** The stored review as the organization's Review (plaudit.review_json). */
  review: string | null;
};

/** GET /organizations/{orgId}/reviews/{id}'s one statement: plaudit.api_review writes the body. */
const readReview = (sql: Sql, key: CredentialReadArgs, { id }: Record<string, string>) =>
  sql<CredentialReadRow<z.infer<typeof Review>>[]>`
    select * from plaudit.api_review(${key.hash}, ${key.orgId}, ${key.rateLimit}, ${id})`;

/**
 * The list's first page (page 1, the default size, no filter) as one statement
 * (plaudit.api_review_first_page writes the body); every other list is listReviews'.
 */
const readFirstReviewPage = (sql: Sql, key: CredentialReadArgs) =>
  sql<CredentialReadRow<ReviewPage>[]>`
    select * from plaudit.api_review_first_page(${key.hash}, ${key.orgId}, ${key.rateLimit})`;

/** The first page's query strings: none, or only its defaults spelt out (the SDK asks `?page=1`). */
const FIRST_PAGE_QUERIES = ['page=1', 'limit=20', 'page=1&limit=20', 'limit=20&page=1'];

export const reviews = router();
reviews.use('/reviews', publicCors({ methods: ['POST'] }));
reviews
  .openapi(
    createRoute({
      method: 'post',
      path: '/reviews',
      operationId: 'reviews.submit',
      tags: ['Reviews'],
      summary: 'Submit a new review',
      description:
        "Public: no API key. Validated against the form (custom fields, lengths, e-mail, rating 1–5). The status follows the form's verification mode: `none` → `unverified`; `email` → `pending` and a verification link is e-mailed; `purchase_proof` → `verified` when `order_id` matches an order (and its e-mail, when it has one), else `pending`; `manual` → `pending`. Limited per client IP (`SUBMIT_RATE_LIMIT_PER_MINUTE`). The same e-mail, form and text within 24 hours is stored once (409). Fields such as `is_hidden` or `verification_status` are ignored.",
      request: { body: { required: true, content: { 'application/json': { schema: ReviewSubmission } } } },
      responses: {
        201: json(Review, 'The stored review'),
        400: errorResponseSpec('Malformed JSON'),
        404: errorResponseSpec('Unknown, inactive or deleted form'),
        409: errorResponseSpec('The same review was already submitted within 24 hours'),
        422: errorResponseSpec('A field failed validation; the message names it'),
        429: errorResponseSpec('Too many submissions from this address'),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { sql, config } = c.var;
      const bucket = submissionBucket(c, config.trustProxy);
      const limit = config.submitRateLimitPerMinute;
      const [row] = await runAsPublic(sql, (tx) =>
        tx<SubmissionRow[]>`
        select rate_allowed, rate_remaining, rate_reset, error_code, error_message, review
          from plaudit.submit_review(
            p_rate_bucket => ${bucket}, p_rate_limit => ${limit}, p_form_id => ${input.form_id},
            p_rating => ${input.rating}, p_title => ${input.title || null}, p_content => ${input.content},
            p_reviewer_name => ${input.reviewer_name}, p_reviewer_email => ${input.reviewer_email},
            p_custom_fields => ${input.custom_fields ? tx.json(input.custom_fields as never) : null},
            p_order_id => ${input.order_id ?? null}, p_verify_url_base => ${config.publicUrl},
            p_honeypot => ${Boolean(input.website_url?.trim())})`);
      const decision = {
        limit,
        remaining: row.rate_remaining,
        reset: Number(row.rate_reset),
        allowed: row.rate_allowed,
      };
      setRateLimitHeaders(c, decision);
      // The shared 429 answer (with Retry-After) is untyped for this route's response map.
      if (!decision.allowed) return tooManyRequests(c, decision) as never;
      if (row.error_code) {
        throw apiErrorFromDb({ code: row.error_code, message: row.error_message ?? undefined }) ??
          new Error(`submit_review answered ${row.error_code}: ${row.error_message}`);
      }
      return answerJsonText(c, jsonText<ReviewBody>(row.review!), 201);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/reviews',
      operationId: 'reviews.list',
      tags: ['Reviews'],
      summary: 'List reviews',
      description: listDescription,
      request: { params: OrgParams, query: ReviewListQuery },
      responses: { 200: json(Paginated(Review), 'A page of reviews') },
    }, { oneStatementRead: { statement: readFirstReviewPage, queries: FIRST_PAGE_QUERIES } }),
    (c) => c.var.readInOneStatement?.() ?? listAnswer(c, c.var.db!, c.req.valid('query')),
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/reviews',
      operationId: 'reviews.listForKey',
      tags: ['Reviews'],
      summary: "List the key's organization's reviews",
      description:
        `The same list as \`GET /organizations/{orgId}/reviews\`, for the organization of the API key. ${listDescription}`,
      request: { query: ReviewListQuery },
      responses: { 200: json(Paginated(Review), 'A page of reviews') },
    }),
    (c) => listAnswer(c, c.var.db, c.req.valid('query')),
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/reviews/{id}',
      operationId: 'reviews.get',
      tags: ['Reviews'],
      summary: 'Get one review',
      request: { params: OrgItemParams },
      responses: {
        200: json(Review, 'The review'),
        404: errorResponseSpec('No review with this id in this organization'),
      },
    }, { oneStatementRead: { statement: readReview, notFound: REVIEW_NOT_FOUND } }),
    (c) => c.var.readInOneStatement!(),
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/reviews/{id}/moderate',
      operationId: 'reviews.moderate',
      tags: ['Reviews'],
      summary: 'Hide or unhide a review',
      description:
        "Each change is recorded in the review's moderation history with its reason and the API key that made it, and emits `review.moderated`. Hiding a hidden review, or unhiding a visible one, answers 409.",
      request: {
        params: OrgItemParams,
        body: { required: true, content: { 'application/json': { schema: ModerationInput } } },
      },
      responses: {
        200: json(Review, 'The review after the change'),
        404: errorResponseSpec('No review with this id in this organization'),
        409: errorResponseSpec('The review is already in that state'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { action, reason } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ body: string }[]>`
        select plaudit.review_json(m, (select rr from plaudit.review_replies rr where rr.review_id = m.id)) as body
          from plaudit.moderate_review(${id}, ${action}, ${reason}, ${c.var.caller!.actor}) m`
      );
      return answerJsonText(c, jsonText<ReviewBody>(row.body), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'put',
      path: '/organizations/{orgId}/reviews/{id}/reply',
      operationId: 'reviews.reply',
      tags: ['Reviews'],
      summary: 'Reply to a review, or edit the reply',
      description:
        "The business's public reply, one per review: shown with the review on the public routes. Writing it again replaces it. The review itself never changes. Every change is kept in the review's moderation history (`reply`, `edit_reply`) with its text, and emits `review.replied`.",
      request: {
        params: OrgItemParams,
        body: { required: true, content: { 'application/json': { schema: ReplyInput } } },
      },
      responses: {
        200: json(Review, 'The review with its reply'),
        404: errorResponseSpec('No review with this id in this organization'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { content } = c.req.valid('json');
      const db = c.var.db;
      await translateDbErrors(() =>
        db`select * from plaudit.reply_to_review(${id}, ${content}, ${c.var.caller!.actor})`
      );
      return answerJsonText(c, await loadReview(db, id), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'delete',
      path: '/organizations/{orgId}/reviews/{id}/reply',
      operationId: 'reviews.withdrawReply',
      tags: ['Reviews'],
      summary: 'Withdraw the reply to a review',
      description:
        "The reply disappears from the public routes; the review stays as it is. Kept in the review's moderation history (`withdraw_reply`); emits `review.replied` with `reply: null`.",
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Withdrawn' },
        404: errorResponseSpec('No review with this id in this organization, or it has no reply'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ gone: boolean }[]>`
          select plaudit.withdraw_review_reply(${id}, ${c.var.caller!.actor}) as gone`
      );
      if (!row.gone) throw new ApiError(404, 'This review has no reply');
      return c.body(null, 204);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/reviews/{id}/moderation-history',
      operationId: 'reviews.moderationHistory',
      tags: ['Reviews'],
      summary: 'Moderation history of a review',
      description:
        'Every hide, unhide, verification, approval and rejection of the review, newest first. The trail is append-only and hash-chained in the database.',
      request: { params: OrgItemParams, query: PaginationQuery },
      responses: {
        200: json(Paginated(ModerationEntry), "A page of the review's history"),
        404: errorResponseSpec('No review with this id in this organization'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const page = c.req.valid('query');
      const db = c.var.db;
      type EntryRow = {
        id: string;
        action: z.infer<typeof ModerationEntry>['action'];
        reason: string | null;
        actor: string;
        created_at: Date;
      };
      const [[review], rows, [{ total }]] = await Promise.all([
        db<{ id: string }[]>`select id from plaudit.reviews where id = ${id}`,
        db<EntryRow[]>`
          select id, action, reason, actor, created_at from plaudit.moderation_trail
          where review_id = ${id} order by seq desc limit ${page.limit} offset ${offset(page)}`,
        db<
          { total: number }[]
        >`select count(*)::integer as total from plaudit.moderation_trail where review_id = ${id}`,
      ]);
      if (!review) throw new ApiError(404, REVIEW_NOT_FOUND);
      return c.json(paginate(rows.map((e) => ({ ...e, created_at: iso(e.created_at)! })), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/moderation-chain',
      operationId: 'moderationChain.check',
      tags: ['Reviews'],
      summary: 'Check the moderation trail',
      description:
        "The organization's moderation trail head (`entries`, `head`), and whether the trail verifies: each entry's hash covers the one before it. Given a head kept earlier (`entries` and `head`, from this route, the public profile, a `review.moderated` event or an export), it also says whether today's trail still holds that head at that position; whoever rewrote history since, even with the database's owner rights, cannot make it match (SECURITY.md).",
      request: { params: OrgParams, query: ChainQuery },
      responses: {
        200: json(ChainStatus, 'The head, and whether the trail verifies'),
        400: errorResponseSpec('`entries` without `head` or the reverse, or `head` not 64 hexadecimal characters'),
      },
    }),
    async (c) => {
      const { entries, head } = c.req.valid('query');
      if ((entries === undefined) !== (head === undefined)) {
        throw new ApiError(400, 'entries and head: give both, or neither');
      }
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ s: z.infer<typeof ChainStatus> }[]>`
        select plaudit.moderation_chain_status(${entries ?? null}, ${head ?? null}) as s`
      );
      return c.json(row.s, 200);
    },
  );
