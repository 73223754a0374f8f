// The moderation trail: a review's history, and the check of the organization's hash-chained trail.
import { z } from '@hono/zod-openapi';
import { translateDbErrors } from '../../http/db-errors.ts';
import { ApiError } from '../../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { ChainHead, errorResponseSpec, iso, json, OrgItemParams, OrgParams, Timestamp } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { REVIEW_NOT_FOUND } from './shape.ts';

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

const ModerationEntry = z.object({
  id: z.string().uuid(),
  action: z.enum([
    'hide',
    'unhide',
    'verify',
    'approve',
    'reject',
    'reply',
    'edit_reply',
    'withdraw_reply',
    'hide_media',
    'unhide_media',
    'appeal',
    'uphold_appeal',
    'reverse_appeal',
  ]),
  reason: z.string().nullable().openapi({
    description:
      "The reason given, or a reply's text; for `hide_media` and `unhide_media`, `media <id>: <reason>`; for an appeal's steps, `appeal <id>: <text or reasons>`.",
  }),
  actor: z.string().openapi({
    description:
      'Who made the change: `api_key:<key id>`, `reviewer:email_link`, or `database:<user>` for a change made in the database directly.',
    example: 'api_key:0b6c2d9e-6f3c-4a51-9d7b-2b1f0e8c4a11',
  }),
  created_at: Timestamp,
}).openapi('ModerationEntry');

export const reviewTrail = router()
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
