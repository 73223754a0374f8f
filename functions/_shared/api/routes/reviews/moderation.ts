// What the organization does to a review: hide or unhide it, reply to it or withdraw the reply.
import { z } from '@hono/zod-openapi';
import { translateDbErrors } from '../../http/db-errors.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { loadReview, Review, type ReviewBody } from './shape.ts';

export const ModerationInput = z.object({
  action: z.enum(['hide', 'unhide']),
  reason: z.string().trim().min(1).max(1000),
  ground: z.object({
    type: z.enum(['policy', 'law']),
    text: z.string().trim().min(1).max(500),
  }).optional().openapi({
    description:
      "A hide's ground for the statement of reasons mailed to the reviewer (EU DSA Art. 17): the clause of your review policy, or the law; `<your name>'s review policy` when left out.",
  }),
}).openapi('ModerationInput', {
  example: {
    action: 'hide',
    reason: 'Contains a phone number',
    ground: { type: 'policy', text: 'Review policy §3: no personal data' },
  },
});

export const ReplyInput = z.object({
  content: z.string().trim().min(1).max(5000),
}).openapi('ReplyInput', { example: { content: 'Thank you, Ada! A new courier now delivers in two days.' } });

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
      const { action, reason, ground } = c.req.valid('json');
      const db = c.var.db;
      // The hide's statement of reasons takes its ground from the transaction (statements_of_reasons.sql).
      if (ground) await db`select plaudit.set_restriction('moderation', ${ground.type}, ${ground.text}, false)`;
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
        "The business's public reply, one per review: shown with the review on the public routes. Writing it again replaces it. The review itself never changes. Only a published review takes one: a `pending` review (not public yet) or a `rejected` one (never public) answers 409; a published review hidden since keeps its reply, which shows again with it. Every change is kept in the review's moderation history (`reply`, `edit_reply`) with its text, and emits `review.replied`.",
      request: { params: OrgItemParams, body: jsonBody(ReplyInput) },
      responses: {
        200: json(Review, 'The review with its reply'),
        404: errorResponseSpec('No review with this id in this organization'),
        409: errorResponseSpec('The review is pending or rejected: only a published review takes a public reply'),
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
  );
