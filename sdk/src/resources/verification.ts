import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { BodyOf, ResponseOf, Review } from '../types.ts';

const BASE = '/api/v1/organizations/{orgId}/verification';
const ORDERS = '/api/v1/organizations/{orgId}/orders';

export class Verification extends Resource {
  /** Verifies a pending review with its e-mail `token` or a purchase-proof `order_id`. */
  verify(body: BodyOf<`${typeof BASE}/verify`, 'post'>, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('post', `${BASE}/verify`, {}, { body }, opts);
  }

  /** Approves a pending review by hand; 409 when it is not pending. */
  approve(body: BodyOf<`${typeof BASE}/approve`, 'post'>, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('post', `${BASE}/approve`, {}, { body }, opts);
  }

  /** Rejects a pending review; it never appears publicly. */
  reject(body: BodyOf<`${typeof BASE}/reject`, 'post'>, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('post', `${BASE}/reject`, {}, { body }, opts);
  }

  /** Loads (upserts) the orders that purchase-proof reviews are checked against. */
  loadOrders(
    body: BodyOf<typeof ORDERS, 'post'>,
    opts?: RequestOptions,
  ): ApiPromise<ResponseOf<typeof ORDERS, 'post'>> {
    return this.call('post', ORDERS, {}, { body }, opts);
  }
}
