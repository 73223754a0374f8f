import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { BodyOf, HeldReview, Hold, QueryOf, ResponseOf } from '../types.ts';

const HOLDS = '/api/v1/organizations/{orgId}/holds';
const HOLD = '/api/v1/organizations/{orgId}/holds/{id}';
const RELEASE = '/api/v1/organizations/{orgId}/holds/{id}/release';
const HELD = '/api/v1/organizations/{orgId}/reviews/{id}/held';
const SETTINGS = '/api/v1/organizations/{orgId}/holds/settings';

/**
 * Review bombing holds: a burst of one- and two-star reviews of one subject holds its new reviews
 * as pending until a member releases the hold; and why a review was held at submission.
 */
export class Holds extends Resource {
  /** Holds newest first; `status: 'open' | 'released'` to filter. */
  list(query?: QueryOf<typeof HOLDS>, opts?: RequestOptions): PageRequest<Hold> {
    return this.paged(HOLDS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Hold> {
    return this.call('get', HOLD, { id }, {}, opts);
  }

  /**
   * Ends a hold; its reviews stay pending for `verification.approve` or `reject`. Only a member
   * signed in to the dashboard may: an API key gets 403.
   */
  release(id: string, opts?: RequestOptions): ApiPromise<Hold> {
    return this.call('post', RELEASE, { id }, {}, opts);
  }

  /** The thresholds that make a burst (the defaults until an admin changes them). */
  settings(opts?: RequestOptions): ApiPromise<ResponseOf<typeof SETTINGS, 'get'>> {
    return this.call('get', SETTINGS, {}, {}, opts);
  }

  /** Changes the thresholds given. Only an admin signed in to the dashboard may: an API key gets 403. */
  updateSettings(
    body: BodyOf<typeof SETTINGS, 'patch'>,
    opts?: RequestOptions,
  ): ApiPromise<ResponseOf<typeof SETTINGS, 'patch'>> {
    return this.call('patch', SETTINGS, {}, { body }, opts);
  }

  /** Why a review was held at submission, with the review it repeats (a duplicate's pair). */
  held(reviewId: string, opts?: RequestOptions): ApiPromise<HeldReview> {
    return this.call('get', HELD, { id: reviewId }, {}, opts);
  }
}
