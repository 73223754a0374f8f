import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { BodyOf, ResponseOf } from '../types.ts';

const ERASURES = '/api/v1/organizations/{orgId}/privacy/erasures';
const DATA = '/api/v1/organizations/{orgId}/privacy/data';

/** A reviewer's rights over their address (admin keys). */
export class Privacy extends Resource {
  /**
   * Forgets an address: its reviews anonymized (their title and text too with `redact_content`),
   * its requests and e-mails deleted, the address suppressed as a hash. Answers what was removed.
   */
  erase(body: BodyOf<typeof ERASURES, 'post'>, opts?: RequestOptions): ApiPromise<ResponseOf<typeof ERASURES, 'post'>> {
    return this.call('post', ERASURES, {}, { body }, opts);
  }

  /** Everything held about an address: reviews, review requests, orders, e-mails, suppression, erasures. */
  data(email: string, opts?: RequestOptions): ApiPromise<ResponseOf<typeof DATA, 'get'>> {
    return this.call('get', DATA, {}, { query: { email } }, opts);
  }
}
