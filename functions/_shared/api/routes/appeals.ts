// Reviewers' appeals against a hide (EU DSA Art. 20): made through the link of the statement of
// reasons (pages/appeal.ts), listed and read here, and decided by a member of the team signed in to
// the dashboard, never by an API key or automatically: upheld, or reversed (the review is shown again).
import { z } from '@hono/zod-openapi';
import { translateDbErrors } from '../http/db-errors.ts';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { Statement } from './reviews/statements.ts';

const AppealStatus = z.enum(['open', 'upheld', 'reversed']);

export const Appeal = z.object({
  id: z.string().uuid(),
  review_id: z.string().uuid(),
  statement_id: z.string().uuid().openapi({ description: 'The statement of reasons appealed against.' }),
  text: z.string().openapi({ description: "The reviewer's appeal, as written." }),
  status: AppealStatus,
  resolution: z.string().nullable().openapi({ description: 'The reasons of the decision, once decided.' }),
  decided_at: Timestamp.nullable(),
  decided_by: z.string().nullable().openapi({ description: 'The member who decided it: `member:<member id>`.' }),
  created_at: Timestamp,
  review: z.object({
    id: z.string().uuid(),
    rating: z.number().int(),
    title: z.string().nullable(),
    content: z.string(),
    reviewer_name: z.string(),
    is_hidden: z.boolean(),
  }),
  statement: Statement,
}).openapi('Appeal');
type AppealBody = z.infer<typeof Appeal>;

const AppealListQuery = PaginationQuery.extend({
  status: AppealStatus.optional().openapi({ description: '`open`, `upheld` or `reversed`; all when left out.' }),
});

const AppealDecision = z.object({
  status: z.enum(['upheld', 'reversed']).openapi({
    description: '`upheld`: the review stays hidden; `reversed`: it is shown again.',
  }),
  resolution: z.string().trim().min(1).max(2000).openapi({ description: 'The reasons, mailed to the reviewer.' }),
}).openapi('AppealDecision', {
  example: { status: 'reversed', resolution: 'The order was real; the words are fair.' },
});

const APPEAL_NOT_FOUND = 'Appeal not found';

export const appeals = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/appeals',
      operationId: 'appeals.list',
      tags: ['Appeals'],
      summary: "List reviewers' appeals",
      description: 'Newest first, each with its review and the statement of reasons it answers.',
      request: { params: OrgParams, query: AppealListQuery },
      responses: { 200: json(Paginated(Appeal), 'A page of appeals') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const where = q.status ? db`a.status = ${q.status}` : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<{ appeal: AppealBody }[]>`
          select plaudit.review_appeal_json(a.id) as appeal from plaudit.review_appeals a where ${where}
           order by a.created_at desc, a.id desc limit ${q.limit} offset ${offset(q)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.review_appeals a where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => r.appeal), total, q), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/appeals/{id}',
      operationId: 'appeals.get',
      tags: ['Appeals'],
      summary: 'Get an appeal',
      request: { params: OrgItemParams },
      responses: {
        200: json(Appeal, 'The appeal'),
        404: errorResponseSpec('No appeal with this id in this organization'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const [row] = await c.var.db<{ appeal: AppealBody | null }[]>`select plaudit.review_appeal_json(${id}) as appeal`;
      if (!row.appeal) throw new ApiError(404, APPEAL_NOT_FOUND);
      return c.json(row.appeal, 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/appeals/{id}',
      operationId: 'appeals.decide',
      tags: ['Appeals'],
      summary: 'Decide an appeal',
      description:
        "A member of the team, signed in to the dashboard, upholds the hide or reverses it (the review is shown again); an API key gets 403, as appeals are decided by a person. The decision is in the review's moderation history and mailed to the reviewer. A decided appeal answers 409.",
      request: { params: OrgItemParams, body: jsonBody(AppealDecision) },
      responses: {
        200: json(Appeal, 'The appeal, decided'),
        403: errorResponseSpec('Not a member signed in, or not allowed'),
        404: errorResponseSpec('No appeal with this id in this organization'),
        409: errorResponseSpec('The appeal is already decided'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { status, resolution } = c.req.valid('json');
      const actor = c.var.caller!.actor;
      if (!actor.startsWith('member:')) {
        throw new ApiError(403, 'Appeals are decided by a member of the team, signed in to the dashboard');
      }
      const db = c.var.db;
      const [decided] = await translateDbErrors(() =>
        db<{ id: string | null }[]>`select plaudit.decide_appeal(${id}, ${status}, ${resolution}, ${actor}) as id`
      );
      if (!decided.id) throw new ApiError(404, APPEAL_NOT_FOUND);
      const [row] = await db<{ appeal: AppealBody }[]>`select plaudit.review_appeal_json(${id}) as appeal`;
      return c.json(row.appeal, 200);
    },
  );
