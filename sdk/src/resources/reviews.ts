import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type {
  ModerationEntry,
  ModerationInput,
  QueryOf,
  ReplyInput,
  ResponseOf,
  Review,
  ReviewListQuery,
  ReviewSubmission,
} from '../types.ts';

const REVIEWS = '/api/v1/organizations/{orgId}/reviews';
const REVIEW = '/api/v1/organizations/{orgId}/reviews/{id}';
const HISTORY = '/api/v1/organizations/{orgId}/reviews/{id}/moderation-history';
const KEY_REVIEWS = '/api/v1/reviews';
const CHAIN = '/api/v1/organizations/{orgId}/moderation-chain';

export class Reviews extends Resource {
  /** The organization's reviews, newest first; filters combine with AND. */
  list(query?: ReviewListQuery, opts?: RequestOptions): PageRequest<Review> {
    return this.paged(REVIEWS, {}, query, opts);
  }

  /**
   * The same list for the API key's own organization, without asking which one it is first
   * (`GET /api/v1/reviews`); the client's `organizationId` does not apply.
   */
  listForKey(query?: QueryOf<typeof KEY_REVIEWS>, opts?: RequestOptions): PageRequest<Review> {
    return this.paged(KEY_REVIEWS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('get', REVIEW, { id }, {}, opts);
  }

  /** Hides or unhides a review (`{ action: 'hide' | 'unhide', reason }`); 409 when it is already so. */
  moderate(id: string, body: ModerationInput, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('patch', `${REVIEW}/moderate`, { id }, { body }, opts);
  }

  /** Writes the business's public reply to a review, or replaces it; answers the review with it. */
  reply(id: string, body: ReplyInput, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('put', `${REVIEW}/reply`, { id }, { body }, opts);
  }

  /** Withdraws the reply to a review (404 when it has none); the review stays as it is. */
  withdrawReply(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', `${REVIEW}/reply`, { id }, {}, opts) as ApiPromise<never>;
  }

  /** The review's moderation trail, newest first. */
  moderationHistory(id: string, query?: QueryOf<typeof HISTORY>, opts?: RequestOptions): PageRequest<ModerationEntry> {
    return this.paged(HISTORY, { id }, query, opts);
  }

  /** The moderation trail's head, and whether the trail verifies (optionally against a head kept earlier). */
  moderationChain(query?: QueryOf<typeof CHAIN>, opts?: RequestOptions): ApiPromise<ResponseOf<typeof CHAIN, 'get'>> {
    return this.call('get', CHAIN, {}, { query }, opts);
  }

  /** Submits a review to a form. Public: no API key is sent. */
  submit(body: ReviewSubmission, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('post', '/api/v1/reviews', {}, { body, auth: false }, opts);
  }
}
