// What the organization does to a review: hide or unhide it, reply to it or withdraw the reply;
// the review's moderation history, and the check of the organization's moderation trail.
import { z } from '@hono/zod-openapi';
import { translateDbErrors } from '../../http/db-errors.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import {
  ChainHead,
  errorResponseSpec,
  iso,
  json,
  jsonBody,
  OrgItemParams,
  OrgParams,
  Timestamp,
} from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { loadReview, Review, REVIEW_NOT_FOUND, type ReviewBody } from './shape.ts';

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

export const reviewModeration = router()
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/reviews/{id}/moderate',
      operationId: 'reviews.moderate',
      tags: ['Reviews'],
      summary: 'Hide or unhide a review',
      description:
        "Each change is recorded in the review's moderation history with its reason and the API key that made it, and emits `review.moderated`. Hiding a hidden review, or unhiding a visible one, answers 409.",
      request: { params: OrgItemParams, body: jsonBody(ModerationInput) },
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
      request: { params: OrgItemParams, body: jsonBody(ReplyInput) },
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
