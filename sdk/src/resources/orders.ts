import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { Order, QueryOf } from '../types.ts';

const ORDERS = '/api/v1/organizations/{orgId}/orders';
const ORDER = '/api/v1/organizations/{orgId}/orders/{orderId}';

/** Orders as the connected shops reported them, with their timeline and review request. */
export class Orders extends Resource {
  /** Newest first; filters `status`, `email`, `connection_id`. */
  list(query?: QueryOf<typeof ORDERS>, opts?: RequestOptions): PageRequest<Order> {
    return this.paged(ORDERS, {}, query, opts);
  }

  /** One order by the id its customer sees (`#1001` as is: the SDK encodes it). */
  get(orderId: string, opts?: RequestOptions): ApiPromise<Order> {
    return this.call('get', ORDER, { orderId }, {}, opts);
  }
}
