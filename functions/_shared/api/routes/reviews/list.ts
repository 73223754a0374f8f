// The reviews' list (by organization, and for the key's organization) and one review: reads
// whose bodies PostgreSQL writes, the first page and one review in one statement.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Sql, Tx } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import type { CredentialReadArgs } from '../../http/env.ts';
import { answerJsonText, type JsonText, jsonText } from '../../http/json-text.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, json, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { type CredentialReadRow, orgRoute, router } from '../define.ts';
import { LanguageCode, Review, REVIEW_NOT_FOUND, VerificationStatus } from './shape.ts';

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
  product_id: z.string().uuid().optional().openapi({ description: 'Only reviews of this product.' }),
  product_external_id: z.string().trim().min(1).max(200).optional().openapi({
    description: 'Only reviews of the product with this id of yours.',
  }),
  startDate: IsoDate.optional().openapi({ description: 'Created on or after (a date means from 00:00 UTC).' }),
  endDate: IsoDate.optional().openapi({ description: 'Created on or before (a date means the whole day, UTC).' }),
  q: z.string().trim().min(1).max(200).optional().openapi({
    description: 'Words that must all appear in the title or text.',
  }),
  has_media: z.enum(['true']).optional().openapi({
    description: 'Only reviews with at least one photo or video, hidden ones included (`true`).',
  }),
  language: LanguageCode.optional().openapi({
    description: 'Only reviews written in this language (ISO 639-1, such as `de`).',
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
  if (q.product_id) conditions.push(db`product_id = ${q.product_id}`);
  if (q.product_external_id) {
    // The tenant's own product (row-level security): another organization's id matches nothing.
    conditions.push(db`product_id = (select id from plaudit.products where external_id = ${q.product_external_id})`);
  }
  if (start) conditions.push(db`created_at >= ${start}`);
  if (end) conditions.push(db`created_at < ${end}`);
  if (q.q) conditions.push(db`search @@ websearch_to_tsquery('simple', ${q.q})`);
  if (q.language) conditions.push(db`language = ${q.language}`);
  if (q.has_media) conditions.push(db`exists (select from plaudit.review_media m where m.review_id = reviews.id)`);
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

export const reviewList = router()
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
  );
