// Review bombing holds (docs/compliance.md): the worker opens a hold when one subject (the business,
// a product or a product group) gets a burst of one- and two-star reviews; new reviews of it are
// held as pending until a member of the team, signed in to the dashboard, releases the hold (never
// an API key, never automatically); then each held review is approved or rejected as manual
// verification does. A review held at submission as a duplicate is read with the review it repeats.
import { z } from '@hono/zod-openapi';
import { translateDbErrors } from '../http/db-errors.ts';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, json, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { VerificationStatus } from './reviews/shape.ts';

export const HoldSubject = z.object({
  kind: z.enum(['business', 'product', 'group']).openapi({
    description: "`business`: reviews of no product; `product`: one product's; `group`: a product group's.",
  }),
  product_id: z.string().uuid().nullable(),
  group: z.string().nullable().openapi({ description: "The products' `group` key, for a group." }),
  name: z.string().nullable().openapi({
    description: "The business's or product's name (a group: its first product's).",
  }),
}).openapi('HoldSubject');

export const HoldFigures = z.object({
  low_ratings: z.number().int().openapi({ description: 'One- and two-star reviews of the subject in the hour.' }),
  reviews: z.number().int().openapi({ description: 'All reviews of the subject in the hour.' }),
  client_addresses: z.number().int().openapi({ description: 'Distinct client addresses they came from.' }),
  low_ratings_without_busiest_address: z.number().int(),
  hourly_median_28_days: z.number().openapi({
    description: "The subject's hourly median of one- and two-star reviews over the 28 days before.",
  }),
  window_start: Timestamp,
  window_end: Timestamp,
  thresholds: z.object({
    min_reviews: z.number().int(),
    min_addresses: z.number().int(),
    median_factor: z.number(),
    min_low_share: z.number(),
  }).openapi({ description: "The organization's thresholds when the hold was opened." }),
}).openapi('HoldFigures');

const HoldStatus = z.enum(['open', 'released']);

export const Hold = z.object({
  id: z.string().uuid(),
  status: HoldStatus,
  subject: HoldSubject,
  started_at: Timestamp,
  figures: HoldFigures,
  released_at: Timestamp.nullable(),
  released_by: z.string().nullable().openapi({ description: 'The member who released it: `member:<member id>`.' }),
  held_reviews: z.array(z.object({
    id: z.string().uuid(),
    rating: z.number().int(),
    title: z.string().nullable(),
    content: z.string(),
    reviewer_name: z.string(),
    verification_status: VerificationStatus,
    created_at: Timestamp,
  })).openapi({ description: 'The reviews held while it was open, oldest first.' }),
}).openapi('Hold');
type HoldBody = z.infer<typeof Hold>;

const HoldListQuery = PaginationQuery.extend({
  status: HoldStatus.optional().openapi({ description: '`open` or `released`; all when left out.' }),
});

const HeldReviewSide = z.object({
  id: z.string().uuid(),
  rating: z.number().int(),
  title: z.string().nullable(),
  content: z.string(),
  reviewer_name: z.string(),
  verification_status: VerificationStatus,
  created_at: Timestamp,
});

export const HeldReview = z.object({
  review_id: z.string().uuid(),
  reason: z.enum(['burst', 'duplicate_text', 'order_reused']).openapi({
    description:
      "`burst`: an open hold on the review's subject; `duplicate_text`: 90 % or more alike to `duplicate_of`; `order_reused`: its order id already has `duplicate_of`, of the same product.",
  }),
  hold_id: z.string().uuid().nullable(),
  similarity: z.number().nullable().openapi({ description: 'For `duplicate_text`: how alike, from 0.9 to 1.' }),
  held_at: Timestamp,
  resolved_at: Timestamp.nullable().openapi({ description: 'When a person approved or rejected it.' }),
  review: HeldReviewSide,
  duplicate_of: HeldReviewSide.nullable().openapi({ description: 'The review it repeats, to read side by side.' }),
}).openapi('HeldReview');
type HeldReviewBody = z.infer<typeof HeldReview>;

const HOLD_NOT_FOUND = 'Hold not found';
export const RELEASE_BY_MEMBER = 'Holds are released by a member of the team, signed in to the dashboard';

export const holds = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/holds',
      operationId: 'holds.list',
      tags: ['Holds'],
      summary: 'List review bombing holds',
      description: 'Newest first, each with the figures that opened it and the reviews it holds.',
      request: { params: OrgParams, query: HoldListQuery },
      responses: { 200: json(Paginated(Hold), 'A page of holds') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const where = q.status === 'open'
        ? db`h.released_at is null`
        : q.status === 'released'
        ? db`h.released_at is not null`
        : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<{ hold: HoldBody }[]>`
          select plaudit.review_hold_json(h.id) as hold from plaudit.review_holds h where ${where}
           order by h.started_at desc, h.id desc limit ${q.limit} offset ${offset(q)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.review_holds h where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => r.hold), total, q), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/holds/{id}',
      operationId: 'holds.get',
      tags: ['Holds'],
      summary: 'Get a hold',
      request: { params: OrgItemParams },
      responses: {
        200: json(Hold, 'The hold'),
        404: errorResponseSpec('No hold with this id in this organization'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const [row] = await c.var.db<{ hold: HoldBody | null }[]>`select plaudit.review_hold_json(${id}) as hold`;
      if (!row.hold) throw new ApiError(404, HOLD_NOT_FOUND);
      return c.json(row.hold, 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/holds/{id}/release',
      operationId: 'holds.release',
      tags: ['Holds'],
      summary: 'Release a hold',
      description:
        'A member of the team, signed in to the dashboard, ends the hold: new reviews of the subject publish as before. The reviews it held stay pending: approve or reject each (`POST …/verification/approve` or `/reject`). In the moderation trail (`release_hold`). An API key gets 403; a released hold answers 409.',
      request: { params: OrgItemParams },
      responses: {
        200: json(Hold, 'The hold, released'),
        403: errorResponseSpec('Not a member signed in, or not allowed'),
        404: errorResponseSpec('No hold with this id in this organization'),
        409: errorResponseSpec('The hold is already released'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const actor = c.var.caller!.actor;
      if (!actor.startsWith('member:')) throw new ApiError(403, RELEASE_BY_MEMBER);
      const db = c.var.db;
      const [released] = await translateDbErrors(() =>
        db<{ id: string | null }[]>`select plaudit.release_review_hold(${id}, ${actor}) as id`
      );
      if (!released.id) throw new ApiError(404, HOLD_NOT_FOUND);
      const [row] = await db<{ hold: HoldBody }[]>`select plaudit.review_hold_json(${id}) as hold`;
      return c.json(row.hold, 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/reviews/{id}/held',
      operationId: 'reviews.held',
      tags: ['Holds'],
      summary: 'Why a review was held',
      description:
        'For a review held as pending at submission: the reason, and the review it repeats for a duplicate, to read side by side. A review never held answers 404.',
      request: { params: OrgItemParams },
      responses: {
        200: json(HeldReview, 'Why the review was held'),
        404: errorResponseSpec('No review with this id in this organization, or it was not held'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const [row] = await c.var.db<{ held: HeldReviewBody | null }[]>`select plaudit.held_review_json(${id}) as held`;
      if (!row.held) throw new ApiError(404, 'No held review with this id in this organization');
      return c.json(row.held, 200);
    },
  );
