// A review's statements of reasons (EU DSA Art. 17): one each time it was hidden, by moderation, a
// report's decision or an automatic hold, with the facts, the ground and whether automated means
// decided. Written in the database by the hide itself (statements_of_reasons.sql), never here.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/errors.ts';
import { errorResponseSpec, json, OrgItemParams, Timestamp } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { REVIEW_NOT_FOUND } from './shape.ts';

export const Statement = z.object({
  id: z.string().uuid(),
  review_id: z.string().uuid(),
  restriction: z.enum(['hidden']).openapi({ description: 'What was restricted: the review is hidden from everyone.' }),
  facts: z.string().openapi({ description: 'The facts and circumstances the decision rests on: the reason given.' }),
  automated: z.boolean().openapi({ description: 'Whether automated means took the decision.' }),
  ground: z.object({
    type: z.enum(['policy', 'law']).openapi({ description: "`policy`: the business's review policy; `law`: a law." }),
    text: z.string().openapi({ description: 'The clause of the policy, or the law named.' }),
  }),
  source: z.enum(['moderation', 'report', 'automatic']).openapi({
    description: 'What hid it: moderation, the decision on a report, or an automatic hold.',
  }),
  report_id: z.string().uuid().nullable().openapi({ description: 'The report decided, for `report`.' }),
  actor: z.string().openapi({ description: 'Who hid it: `api_key:<id>`, `member:<id>`, or the system.' }),
  mailed: z.boolean().openapi({
    description: 'Whether it was mailed to the reviewer (with a link to appeal): only a review with an address is.',
  }),
  created_at: Timestamp,
}).openapi('Statement');

const StatementList = z.object({ data: z.array(Statement) }).openapi('StatementList');

export const reviewStatements = router().openapi(
  orgRoute('read', {
    method: 'get',
    path: '/organizations/{orgId}/reviews/{id}/statements',
    operationId: 'reviews.statements',
    tags: ['Reviews'],
    summary: "A review's statements of reasons",
    description:
      "Every statement of reasons (EU DSA Art. 17) the review's hides wrote, newest first: what was restricted, the facts, the ground (your policy or the law named), whether automated means decided, and whether the reviewer was mailed it with a link to appeal.",
    request: { params: OrgItemParams },
    responses: {
      200: json(StatementList, "The review's statements"),
      404: errorResponseSpec('No review with this id in this organization'),
    },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const [row] = await c.var.db<{ statements: z.infer<typeof Statement>[] | null }[]>`
      select plaudit.review_statements_json(${id}) as statements`;
    if (!row.statements) throw new ApiError(404, REVIEW_NOT_FOUND);
    return c.json({ data: row.statements }, 200);
  },
);
