import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { QueryOf, Question, QuestionModeration } from '../types.ts';

const QUESTIONS = '/api/v1/organizations/{orgId}/questions';
const QUESTION = '/api/v1/organizations/{orgId}/questions/{id}';

/** Shoppers' questions about the organization's products and business, answered and moderated. */
export class Questions extends Resource {
  /** Questions newest first, with every answer; filter by `status`, `product_id`, `answered`. */
  list(query?: QueryOf<typeof QUESTIONS>, opts?: RequestOptions): PageRequest<Question> {
    return this.paged(QUESTIONS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Question> {
    return this.call('get', QUESTION, { id }, {}, opts);
  }

  /** The business's answer, published at once; answers the question with its answers. */
  answer(id: string, content: string, opts?: RequestOptions): ApiPromise<Question> {
    return this.call('post', `${QUESTION}/answers`, { id }, { body: { content } }, opts);
  }

  /** Hides or unhides a question, with the reason the trail keeps. */
  moderate(id: string, body: QuestionModeration, opts?: RequestOptions): ApiPromise<Question> {
    return this.call('patch', `${QUESTION}/moderate`, { id }, { body }, opts);
  }

  /** Hides or unhides an answer, with the reason the trail keeps; answers its question. */
  moderateAnswer(answerId: string, body: QuestionModeration, opts?: RequestOptions): ApiPromise<Question> {
    return this.call('patch', '/api/v1/organizations/{orgId}/answers/{id}/moderate', { id: answerId }, { body }, opts);
  }
}
