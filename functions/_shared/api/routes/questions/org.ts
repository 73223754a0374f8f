// What the organization does with shoppers' questions (docs/questions.md): list and read them, answer them (published
// at once; the business's answer is one, edited in place), hide or unhide a question or an answer, on the questions'
// trail.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { translateDbErrors } from '../../http/db-errors.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { ModerationInput } from '../reviews/moderation.ts';
import { AnswerInput, Question, type QuestionBody } from './shape.ts';

const TAGS = ['Questions'];
const QuestionPage = Paginated(Question);
export const QUESTION_NOT_FOUND = 'Question not found';

const QuestionListQuery = PaginationQuery.extend({
  status: z.enum(['pending', 'published', 'hidden']).optional().openapi({
    description: '`pending` (not confirmed by its asker yet), `published` or `hidden`.',
  }),
  product_id: z.string().uuid().optional().openapi({ description: 'Only questions about this product (its `id`).' }),
  answered: z.enum(['true', 'false']).transform((v) => v === 'true').optional().openapi({
    description: '`true`: only questions with a visible answer; `false`: only those without.',
  }),
});

/** Hide or unhide, with the reason the trail keeps (reviews' moderation without a ground). */
const QuestionModerationInput = ModerationInput.omit({ ground: true }).openapi('QuestionModerationInput', {
  example: { action: 'hide', reason: 'Not about the product' },
});

/** A question of the transaction's tenant as the API answers it, or a 404. */
async function loadQuestion(db: Tx, id: string) {
  const [row] = await db<{ body: string | null }[]>`select plaudit.question_json(${id})::text as body`;
  if (!row.body) throw new ApiError(404, QUESTION_NOT_FOUND);
  return jsonText<QuestionBody>(row.body);
}

export const questionRoutes = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/questions',
      operationId: 'questions.list',
      tags: TAGS,
      summary: "List shoppers' questions",
      description:
        'Newest first, each with its product (or null for a question about the business), its asker, its status and every answer (hidden ones marked).',
      request: { params: OrgParams, query: QuestionListQuery },
      responses: { 200: json(QuestionPage, 'A page of questions') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const [row] = await c.var.db<{ body: string }[]>`
        select plaudit.question_page(${q.status ?? null}, ${q.product_id ?? null}, ${q.answered ?? null},
                                     ${q.page}, ${q.limit}) as body`;
      return answerJsonText(c, jsonText<z.infer<typeof QuestionPage>>(row.body), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/questions/{id}',
      operationId: 'questions.get',
      tags: TAGS,
      summary: 'Get a question',
      request: { params: OrgItemParams },
      responses: {
        200: json(Question, 'The question and its answers'),
        404: errorResponseSpec('No question with this id in this organization'),
      },
    }),
    async (c) => answerJsonText(c, await loadQuestion(c.var.db, c.req.valid('param').id), 200),
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/questions/{id}/answers',
      operationId: 'questions.answer',
      tags: TAGS,
      summary: "Answer a question, or edit the business's answer",
      description:
        "The business's answer, published at once under the business's public name (`author: business`). The business has one answer per question: the first call makes it (201), a later one replaces its text (200; the same text changes nothing), and a hidden answer stays hidden until shown again. Emits `question.answered` (again, with the same answer id, on an edit) and is kept in the questions' trail (`answer`, then `edit_answer` with the text it replaced).",
      request: { params: OrgItemParams, body: jsonBody(AnswerInput) },
      responses: {
        200: json(Question, "The question with its answers, the business's edited"),
        201: json(Question, 'The question with its answers'),
        404: errorResponseSpec('No question with this id in this organization'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { content } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ created: boolean }[]>`
          select created from plaudit.write_business_answer(${id}, ${content}, ${c.var.caller!.actor})`
      );
      return answerJsonText(c, await loadQuestion(db, id), row.created ? 201 : 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/questions/{id}/moderate',
      operationId: 'questions.moderate',
      tags: TAGS,
      summary: 'Hide or unhide a question',
      description:
        "Recorded in the questions' trail with its reason and the key that made it; nothing is deleted. Hiding a hidden question, or unhiding a visible one, answers 409.",
      request: { params: OrgItemParams, body: jsonBody(QuestionModerationInput) },
      responses: {
        200: json(Question, 'The question after the change'),
        404: errorResponseSpec('No question with this id in this organization'),
        409: errorResponseSpec('The question is already in that state'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { action, reason } = c.req.valid('json');
      const db = c.var.db;
      await translateDbErrors(() =>
        db`select plaudit.moderate_question(${id}, ${action}, ${reason}, ${c.var.caller!.actor})`
      );
      return answerJsonText(c, await loadQuestion(db, id), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/answers/{id}/moderate',
      operationId: 'questions.moderateAnswer',
      tags: TAGS,
      summary: 'Hide or unhide an answer',
      description:
        "Recorded in the questions' trail with its reason and the key that made it; nothing is deleted. Hiding a hidden answer, or unhiding a visible one, answers 409.",
      request: { params: OrgItemParams, body: jsonBody(QuestionModerationInput) },
      responses: {
        200: json(Question, "The answer's question after the change"),
        404: errorResponseSpec('No answer with this id in this organization'),
        409: errorResponseSpec('The answer is already in that state'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { action, reason } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ question: string }[]>`
          select plaudit.moderate_answer(${id}, ${action}, ${reason}, ${c.var.caller!.actor}) as question`
      );
      return answerJsonText(c, await loadQuestion(db, row.question), 200);
    },
  );
