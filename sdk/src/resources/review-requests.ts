import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { BodyOf, QueryOf, ResponseOf, ReviewRequest, ReviewRequestInput, ReviewRequestStats } from '../types.ts';

const REQUESTS = '/api/v1/organizations/{orgId}/review-requests';
const BULK = '/api/v1/organizations/{orgId}/review-requests/bulk';
const STATS = '/api/v1/organizations/{orgId}/review-requests/stats';
const SETTINGS = '/api/v1/organizations/{orgId}/review-requests/settings';
const SUPPRESSIONS = '/api/v1/organizations/{orgId}/suppressions';

export class ReviewRequests extends Resource {
  /** Queues one review-request e-mail (now, or at `send_at`). */
  create(body: ReviewRequestInput, opts?: RequestOptions): ApiPromise<ReviewRequest> {
    return this.call('post', REQUESTS, {}, { body }, opts);
  }

  /**
   * Up to 1,000 requests, each validated on its own. The Idempotency-Key (random per call unless
   * given) makes a retried call answer the first call's result without sending again.
   */
  bulk(
    requests: ReviewRequestInput[] | BodyOf<typeof BULK, 'post'>,
    opts?: RequestOptions,
  ): ApiPromise<ResponseOf<typeof BULK, 'post'>> {
    const body = Array.isArray(requests) ? { requests } : requests;
    return this.call('post', BULK, {}, { body }, opts);
  }

  list(query?: QueryOf<typeof REQUESTS>, opts?: RequestOptions): PageRequest<ReviewRequest> {
    return this.paged(REQUESTS, {}, query, opts);
  }

  /** One request with its delivery timeline. */
  get(id: string, opts?: RequestOptions): ApiPromise<ReviewRequest> {
    return this.call('get', `${REQUESTS}/{id}`, { id }, {}, opts);
  }

  /** Counts per status, rates and a daily series for `startDate`–`endDate` (default the last 30 days). */
  stats(query?: QueryOf<typeof STATS>, opts?: RequestOptions): ApiPromise<ReviewRequestStats> {
    return this.call('get', STATS, {}, { query }, opts);
  }

  /** The daily quota and the reminder settings. */
  settings(opts?: RequestOptions): ApiPromise<ResponseOf<typeof SETTINGS, 'get'>> {
    return this.call('get', SETTINGS, {}, {}, opts);
  }

  updateSettings(
    body: BodyOf<typeof SETTINGS, 'patch'>,
    opts?: RequestOptions,
  ): ApiPromise<ResponseOf<typeof SETTINGS, 'patch'>> {
    return this.call('patch', SETTINGS, {}, { body }, opts);
  }

  /** Addresses that never get review requests. */
  suppressions(
    query?: QueryOf<typeof SUPPRESSIONS>,
    opts?: RequestOptions,
  ): PageRequest<ResponseOf<typeof SUPPRESSIONS, 'post'>> {
    return this.paged(SUPPRESSIONS, {}, query, opts);
  }

  suppress(email: string, opts?: RequestOptions): ApiPromise<ResponseOf<typeof SUPPRESSIONS, 'post'>> {
    return this.call('post', SUPPRESSIONS, {}, { body: { email } }, opts);
  }

  unsuppress(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', `${SUPPRESSIONS}/{id}`, { id }, {}, opts) as ApiPromise<never>;
  }
}
