import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { Appeal, AppealDecision, QueryOf } from '../types.ts';

const APPEALS = '/api/v1/organizations/{orgId}/appeals';
const APPEAL = '/api/v1/organizations/{orgId}/appeals/{id}';

/** Reviewers' appeals against a hide (EU DSA Art. 20), each with its review and statement of reasons. */
export class Appeals extends Resource {
  /** Appeals newest first; `status: 'open' | 'upheld' | 'reversed'` to filter. */
  list(query?: QueryOf<typeof APPEALS>, opts?: RequestOptions): PageRequest<Appeal> {
    return this.paged(APPEALS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Appeal> {
    return this.call('get', APPEAL, { id }, {}, opts);
  }

  /**
   * Upholds or reverses an appeal (reversing shows the review again). Only a member signed in to
   * the dashboard may: an API key gets 403.
   */
  decide(id: string, body: AppealDecision, opts?: RequestOptions): ApiPromise<Appeal> {
    return this.call('patch', APPEAL, { id }, { body }, opts);
  }
}
