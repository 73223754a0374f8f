// The shapes of questions and answers: the organization's Question (plaudit.question_json, key
// for key), the public item (plaudit.public_question_json) and the inputs.
import { z } from '@hono/zod-openapi';

const AnswerAuthor = z.enum(['business', 'verified_buyer']).openapi({
  description: "`business`: the business's own answer; `verified_buyer`: a customer whose order held the product.",
});

export const QuestionAnswer = z.object({
  id: z.string().uuid(),
  content: z.string().openapi({ description: 'Text, never markup.' }),
  author: AnswerAuthor,
  author_name: z.string(),
  is_hidden: z.boolean(),
  helpful_count: z.number().int(),
  created_at: z.string(),
}).openapi('QuestionAnswer');

export const Question = z.object({
  id: z.string().uuid(),
  product: z.object({ id: z.string().uuid(), external_id: z.string(), name: z.string() }).nullable().openapi({
    description: 'The product asked about, or null for a question about the business.',
  }),
  question: z.string().openapi({ description: 'Text, never markup.' }),
  asker_name: z.string(),
  asker_email: z.string().nullable().openapi({
    description: 'Never shown to the public; null once the asker was erased (privacy erasures).',
  }),
  status: z.enum(['pending', 'published', 'hidden']).openapi({
    description: '`pending` until its asker confirms by the e-mailed link; `hidden` by moderation.',
  }),
  answered: z.boolean().openapi({ description: 'Whether the question has a visible answer.' }),
  answers: z.array(QuestionAnswer).openapi({ description: 'Every answer, oldest first, hidden ones included.' }),
  confirmed_at: z.string().nullable(),
  created_at: z.string(),
}).openapi('Question');
export type QuestionBody = z.infer<typeof Question>;

export const PublicQuestionAnswer = z.object({
  id: z.string().uuid(),
  content: z.string().openapi({ description: 'Text, never markup.' }),
  author: AnswerAuthor,
  author_name: z.string(),
  created_at: z.string(),
  helpful_count: z.number().int(),
}).openapi('PublicQuestionAnswer');

export const PublicQuestion = z.object({
  id: z.string().uuid(),
  question: z.string().openapi({ description: 'Text, never markup.' }),
  asker_name: z.string(),
  created_at: z.string(),
  answers: z.array(PublicQuestionAnswer).openapi({ description: 'The visible answers, oldest first.' }),
}).openapi('PublicQuestion');
export type PublicQuestionBody = z.infer<typeof PublicQuestion>;

export const ANSWER_MAX = 5000;

export const AnswerInput = z.object({
  content: z.string().trim().min(1).max(ANSWER_MAX),
}).openapi('AnswerInput', { example: { content: 'Yes: it is dishwasher safe up to 60 °C.' } });

export const QuestionInput = z.object({
  product_external_id: z.string().trim().min(1).max(200).optional().openapi({
    description: "The product asked about, by the business's own id; leave out for a question about the business.",
  }),
  question: z.string().trim().min(10).max(1000),
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().max(320).email().openapi({
    description: 'Where the confirmation link is sent. Never shown to the public.',
  }),
}).openapi('QuestionInput', {
  example: { product_external_id: 'MUG-1', question: 'Is it dishwasher safe?', name: 'Ada', email: 'ada@example.net' },
});
