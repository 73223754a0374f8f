import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { ApiKey, ApiKeyInput, BodyOf, NewApiKey, QueryOf } from '../types.ts';

const KEYS = '/api/v1/organizations/{orgId}/api-keys';
const KEY = '/api/v1/organizations/{orgId}/api-keys/{id}';
const ROTATE = '/api/v1/organizations/{orgId}/api-keys/{id}/rotate';

/** What rotating takes: the API's body when it documents one, else an optional grace period. */
export type RotateInput = [BodyOf<typeof ROTATE, 'post'>] extends [never] ? { expires_in_seconds?: number }
  : BodyOf<typeof ROTATE, 'post'>;

export class ApiKeys extends Resource {
  /** Issues a key; the answer holds the full key (`key`), shown only here. */
  create(body: ApiKeyInput, opts?: RequestOptions): ApiPromise<NewApiKey> {
    return this.call('post', KEYS, {}, { body }, opts);
  }

  /** Active keys; only their prefixes. */
  list(query?: QueryOf<typeof KEYS>, opts?: RequestOptions): PageRequest<ApiKey> {
    return this.paged(KEYS, {}, query, opts);
  }

  /** The key answers 401 from now on. */
  revoke(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', KEY, { id }, {}, opts) as ApiPromise<never>;
  }

  /** Issues a new key with the same name, scope and limit, and retires the old one. */
  rotate(id: string, body?: RotateInput, opts?: RequestOptions): ApiPromise<NewApiKey> {
    return this.call('post', ROTATE, { id }, { body }, opts) as ApiPromise<NewApiKey>;
  }
}
