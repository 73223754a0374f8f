import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type {
  Connection,
  ConnectionEvent,
  ConnectionInput,
  ConnectionPatch,
  NewConnection,
  QueryOf,
  ShopifyWriteBack,
} from '../types.ts';

const CONNECTIONS = '/api/v1/organizations/{orgId}/connections';
const CONNECTION = '/api/v1/organizations/{orgId}/connections/{id}';
const TEST = '/api/v1/organizations/{orgId}/connections/{id}/test';
const WRITE_BACKS = '/api/v1/organizations/{orgId}/connections/{id}/write-backs';

/** Shop connections (admin key): where the organization's orders happen. */
export class Connections extends Resource {
  /**
   * Connects a shop. Its `inbound_url` is where the platform sends its events; a `webhook`
   * connection's answer holds its `signing_secret` (`whsec_…`), shown only here.
   */
  create(body: ConnectionInput, opts?: RequestOptions): ApiPromise<NewConnection> {
    return this.call('post', CONNECTIONS, {}, { body }, opts);
  }

  list(query?: QueryOf<typeof CONNECTIONS>, opts?: RequestOptions): PageRequest<Connection> {
    return this.paged(CONNECTIONS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Connection> {
    return this.call('get', CONNECTION, { id }, {}, opts);
  }

  /** Renames it, gives it new credentials, or disconnects it (`{ status: 'disconnected' }`) for a while. */
  update(id: string, body: ConnectionPatch, opts?: RequestOptions): ApiPromise<Connection> {
    return this.call('patch', CONNECTION, { id }, { body }, opts);
  }

  /** Removes it: its events are refused from then on; the orders and requests it brought stay. */
  delete(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', CONNECTION, { id }, {}, opts) as ApiPromise<never>;
  }

  /** The last 20 events it received, newest first, with their outcome; sends nothing to the shop. */
  test(id: string, opts?: RequestOptions): ApiPromise<{ events: ConnectionEvent[] }> {
    return this.call('post', TEST, { id }, {}, opts);
  }

  /** A Shopify connection's ratings written to its products' metafields, newest first, with each outcome. */
  writeBacks(id: string, query?: QueryOf<typeof WRITE_BACKS>, opts?: RequestOptions): PageRequest<ShopifyWriteBack> {
    return this.paged(WRITE_BACKS, { id }, query, opts);
  }
}
