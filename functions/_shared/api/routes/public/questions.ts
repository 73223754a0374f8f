// Shoppers' questions and answers, in public (docs/questions.md): ask (confirmed by an e-mailed
// link), read a product's or the business's published questions, a verified buyer's answer
// through their link, and a helpful vote on an answer. Writes are limited per client address in
// the database, as review submissions are; reads revalidate on the public version, as the other
// public reads.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  answerAsBuyer,
  askQuestion,
  type BuyerAnswerOutcome,
  confirmQuestion,
  loadPublicQuestions,
  type RateAnswer,
  voteAnswerHelpful,
} from '../../../core/db/public-questions.ts';
import { apiErrorFromDb, refusalInRow } from '../../http/db-errors.ts';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, json, jsonBody } from '../../http/schemas.ts';
import {
  questionCaller,
  setRateLimitHeaders,
  signalCaller,
  tooManyRequests,
} from '../../middleware/rate-limit/index.ts';
import { conditionalPublicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import { AnswerInput, PublicQuestion, QuestionInput } from '../questions/shape.ts';
import {
  BUSINESS_NOT_FOUND,
  cachingHeaders,
  notModified,
  notModifiedAnswer,
  productVersion,
  publicDescription,
  publicVersion,
  SlugParams,
} from './shared.ts';

const TAGS = ['Public data'];
const QuestionPage = Paginated(PublicQuestion);
const QUESTION_TOKEN = /^[0-9A-Za-z]{20,100}$/;

const ProductParams = SlugParams.extend({
  externalId: z.string().min(1).max(200).openapi({
    param: { name: 'externalId', in: 'path' },
    example: 'MUG-1',
    description: "The product's external id (the business's own), URL-encoded",
  }),
});
const TokenParams = z.object({
  token: z.string().max(200).openapi({
    param: { name: 'token', in: 'path' },
    description: 'The token of the e-mailed link',
  }),
});
const AnswerVoteParams = SlugParams.extend({
  questionId: z.string().uuid().openapi({
    param: { name: 'questionId', in: 'path' },
    description: "The published question's id, as public question items give it",
  }),
  answerId: z.string().uuid().openapi({
    param: { name: 'answerId', in: 'path' },
    description: "The answer's id, as the question's `answers` give it",
  }),
});

const Accepted = z.object({
  status: z.literal('pending_confirmation').openapi({
    description: 'The question shows once its asker opens the link e-mailed to them.',
  }),
}).openapi('QuestionAccepted');

/** The limit's headers, and its 429 when over it. */
function overLimit(c: Context<AppEnv>, limit: number, row: RateAnswer) {
  const decision = { limit, remaining: row.rate_remaining, reset: Number(row.rate_reset), allowed: row.rate_allowed };
  setRateLimitHeaders(c, decision);
  return decision.allowed ? null : tooManyRequests(c, decision);
}

const BUYER_REFUSALS: Record<Exclude<BuyerAnswerOutcome, 'answered'>, [404 | 409 | 410, string]> = {
  invalid: [404, 'Answer link not found'],
  already_used: [409, 'This answer link has already been used'],
  not_published: [409, 'This question is not shown any more'],
  expired: [410, 'This answer link has expired: links are valid for 30 days'],
};

/** A page of questions (a product's, or the business's: null), revalidated on the public version. */
async function questionPage(c: Context<AppEnv>, slug: string, externalId: string | null, notFound: string) {
  const { page, limit } = c.req.valid('query' as never) as { page: number; limit: number };
  const out = await conditionalPublicRead(
    c,
    `questions:${slug}:${externalId ?? ''}:${page}:${limit}`,
    () => externalId === null ? publicVersion(c.var.sql, slug) : productVersion(c.var.sql, slug, externalId),
    () => loadPublicQuestions(c.var.sql, slug, externalId, page, limit),
  );
  if ('notModified' in out) return notModifiedAnswer(out.notModified);
  if (!out.data) throw new ApiError(404, notFound);
  return answerJsonText(c, jsonText<z.infer<typeof QuestionPage>>(out.data.body), 200);
}

const pageOrder =
  'Published questions with their visible answers, the most recently answered first, then the unanswered newest first; never an e-mail address.';

export const questionPublicRoutes = router()
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/questions/{slug}',
      operationId: 'public.askQuestion',
      tags: TAGS,
      summary: 'Ask a question about a product or the business',
      description:
        'Public: no API key. The question is stored pending and a confirmation link is e-mailed to the asker; it shows once they open it. Limited per client IP (`SUBMIT_RATE_LIMIT_PER_MINUTE`).',
      request: { params: SlugParams, body: jsonBody(QuestionInput) },
      responses: {
        202: json(Accepted, 'Stored; waiting for the e-mailed confirmation'),
        400: errorResponseSpec('Malformed JSON'),
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
        422: errorResponseSpec('A field failed validation; the message names it'),
        429: errorResponseSpec('Too many questions from this address'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const input = c.req.valid('json');
      const caller = questionCaller(c);
      const row = await askQuestion(c.var.sql, caller, {
        slug,
        product_external_id: input.product_external_id ?? null,
        question: input.question,
        name: input.name,
        email: input.email,
      }, c.var.config.publicUrl);
      const limited = overLimit(c, caller.limit, row);
      if (limited) return limited as never;
      const refused = refusalInRow(row);
      if (refused) throw apiErrorFromDb(refused) ?? new Error(`ask_question answered ${row.error_code}`);
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'pending_confirmation' as const }, 202);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/questions/{slug}',
      operationId: 'public.businessQuestions',
      tags: TAGS,
      summary: 'Get the questions about the business',
      description: `${pageOrder} ${publicDescription}`,
      request: { params: SlugParams, query: PaginationQuery },
      responses: {
        200: { ...json(QuestionPage, 'A page of questions'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }),
    (c) => questionPage(c as never, c.req.valid('param').slug, null, BUSINESS_NOT_FOUND),
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/{externalId}/questions',
      operationId: 'public.productQuestions',
      tags: TAGS,
      summary: "Get a product's questions",
      description: `${pageOrder} ${publicDescription}`,
      request: { params: ProductParams, query: PaginationQuery },
      responses: {
        200: { ...json(QuestionPage, 'A page of questions'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
      },
    }),
    (c) => {
      const { slug, externalId } = c.req.valid('param');
      return questionPage(c as never, slug, externalId, 'Product not found');
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/questions/{slug}/{questionId}/answers/{answerId}/helpful',
      operationId: 'public.voteAnswerHelpful',
      tags: TAGS,
      summary: 'Find an answer helpful',
      description:
        "Public: no API key. One vote per answer and network, as reviews' helpful votes: a repeat changes nothing. Only visible answers of published questions take votes. Limited per client IP (`SUBMIT_RATE_LIMIT_PER_MINUTE`).",
      request: { params: AnswerVoteParams },
      responses: {
        200: json(z.object({ helpful_count: z.number().int() }).openapi('AnswerHelpfulCount'), "The answer's votes"),
        400: errorResponseSpec('A malformed id'),
        404: errorResponseSpec('No visible answer with this id on this published question'),
        429: errorResponseSpec('Too many votes from this address'),
      },
    }),
    async (c) => {
      const { slug, questionId, answerId } = c.req.valid('param');
      const caller = signalCaller('helpful', c);
      const row = await voteAnswerHelpful(c.var.sql, caller, slug, questionId, answerId);
      const limited = overLimit(c, caller.limit, row);
      if (limited) return limited as never;
      if (!row.published) throw new ApiError(404, 'Answer not found');
      c.header('Cache-Control', 'no-store');
      return c.json({ helpful_count: row.helpful_count ?? 0 }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/answers/{token}',
      operationId: 'public.answerQuestion',
      tags: TAGS,
      summary: "A verified buyer's answer",
      description:
        'Public: no API key. The token is the one in the link e-mailed to a customer whose order held the product: it answers that one question, once, within 30 days; the answer publishes at once marked `verified_buyer`. Used: 409; expired: 410; not valid: 404. Limited per client IP.',
      request: { params: TokenParams, body: jsonBody(AnswerInput) },
      responses: {
        201: json(z.object({ id: z.string().uuid() }).openapi('BuyerAnswerCreated'), 'The answer is published'),
        404: errorResponseSpec('Not a valid link'),
        409: errorResponseSpec('Already used, or the question is no longer shown'),
        410: errorResponseSpec('Expired'),
        422: errorResponseSpec('A field failed validation'),
        429: errorResponseSpec('Too many answers from this address'),
      },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      const { content } = c.req.valid('json');
      c.header('Cache-Control', 'no-store');
      if (!QUESTION_TOKEN.test(token)) throw new ApiError(404, BUYER_REFUSALS.invalid[1]);
      const caller = questionCaller(c);
      const row = await answerAsBuyer(c.var.sql, caller, token, content);
      const limited = overLimit(c, caller.limit, row);
      if (limited) return limited as never;
      if (row.outcome === 'answered') return c.json({ id: row.answer_id! }, 201);
      const [status, message] = BUYER_REFUSALS[row.outcome ?? 'invalid'];
      throw new ApiError(status, message);
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/question-confirmations/{token}',
      operationId: 'public.confirmQuestion',
      tags: TAGS,
      summary: 'Confirm a question with its e-mailed token',
      description:
        "Publishes the question once (`question.created`); a product's question is then e-mailed to up to 10 of its buyers when the profile's `ask_buyers` is on. The e-mailed link opens the hosted page `{PUBLIC_URL}/questions/confirm/{token}`, whose button does this. Already confirmed: 409; expired: 410; not valid: 404.",
      request: { params: TokenParams },
      responses: {
        200: json(z.object({ status: z.literal('published') }), 'The question is published'),
        404: errorResponseSpec('Not a valid link'),
        409: errorResponseSpec('Already confirmed'),
        410: errorResponseSpec('Expired'),
      },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      c.header('Cache-Control', 'no-store');
      const outcome = QUESTION_TOKEN.test(token)
        ? await confirmQuestion(c.var.sql, token, c.var.config.publicUrl)
        : 'invalid';
      if (outcome === 'confirmed') return c.json({ status: 'published' as const }, 200);
      if (outcome === 'already_confirmed') throw new ApiError(409, 'This question is already confirmed');
      if (outcome === 'expired') {
        throw new ApiError(410, 'This confirmation link has expired: links are valid for 7 days');
      }
      throw new ApiError(404, 'Confirmation link not found');
    },
  );
