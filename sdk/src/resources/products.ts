import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { Product, ProductInput, ProductPatch, ProductSyncResult, QueryOf } from '../types.ts';

const PRODUCTS = '/api/v1/organizations/{orgId}/products';
const PRODUCT = '/api/v1/organizations/{orgId}/products/{id}';

export class Products extends Resource {
  create(body: ProductInput, opts?: RequestOptions): ApiPromise<Product> {
    return this.call('post', PRODUCTS, {}, { body }, opts);
  }

  /** Filters: `q` (a part of the name), `external_id`, `group`, `archived`. */
  list(query?: QueryOf<typeof PRODUCTS>, opts?: RequestOptions): PageRequest<Product> {
    return this.paged(PRODUCTS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Product> {
    return this.call('get', PRODUCT, { id }, {}, opts);
  }

  /** Fields left out stay as they are; `null` clears one; `{ archived: true }` archives. */
  update(id: string, body: ProductPatch, opts?: RequestOptions): ApiPromise<Product> {
    return this.call('patch', PRODUCT, { id }, { body }, opts);
  }

  delete(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', PRODUCT, { id }, {}, opts) as ApiPromise<never>;
  }

  /**
   * Syncs up to 1,000 products by `external_id`: adds the new, updates the changed, counts the
   * rest unchanged; refused rows come back in `rejected` by index while the others land.
   */
  upsert(products: ProductInput[], opts?: RequestOptions): ApiPromise<ProductSyncResult> {
    return this.call('put', PRODUCTS, {}, { body: { products } }, opts);
  }
}
