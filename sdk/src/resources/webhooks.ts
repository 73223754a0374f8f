import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type {
  BodyOf,
  NewWebhook,
  QueryOf,
  ResponseOf,
  Webhook,
  WebhookDelivery,
  WebhookInput,
  WebhookPatch,
} from '../types.ts';

const HOOKS = '/api/v1/organizations/{orgId}/webhooks';
const HOOK = '/api/v1/organizations/{orgId}/webhooks/{id}';
const TEST = '/api/v1/organizations/{orgId}/webhooks/{id}/test';
const DELIVERIES = '/api/v1/organizations/{orgId}/webhooks/{id}/deliveries';
const DELIVERY = '/api/v1/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}';
const ROTATE = '/api/v1/organizations/{orgId}/webhooks/{id}/rotate-secret';

export class Webhooks extends Resource {
  /** Registers an endpoint; the answer holds its signing secret (`whsec_…`), shown only here. */
  create(body: WebhookInput, opts?: RequestOptions): ApiPromise<NewWebhook> {
    return this.call('post', HOOKS, {}, { body }, opts);
  }

  list(query?: QueryOf<typeof HOOKS>, opts?: RequestOptions): PageRequest<Webhook> {
    return this.paged(HOOKS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Webhook> {
    return this.call('get', HOOK, { id }, {}, opts);
  }

  /** Changes the URL, events or description, or enables and disables the endpoint. */
  update(id: string, body: WebhookPatch, opts?: RequestOptions): ApiPromise<Webhook> {
    return this.call('patch', HOOK, { id }, { body }, opts);
  }

  delete(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', HOOK, { id }, {}, opts) as ApiPromise<never>;
  }

  /** Delivers a signed `webhook.test` event (or a sample of the event named) now; answers the outcome. */
  test(id: string, body?: BodyOf<typeof TEST, 'post'>, opts?: RequestOptions): ApiPromise<WebhookDelivery> {
    return this.call('post', TEST, { id }, { body }, opts);
  }

  /** The endpoint's delivery log, newest first. */
  deliveries(id: string, query?: QueryOf<typeof DELIVERIES>, opts?: RequestOptions): PageRequest<WebhookDelivery> {
    return this.paged(DELIVERIES, { id }, query, opts);
  }

  /** One delivery, with the exact body sent. */
  delivery(id: string, deliveryId: string, opts?: RequestOptions): ApiPromise<ResponseOf<typeof DELIVERY, 'get'>> {
    return this.call('get', DELIVERY, { id, deliveryId }, {}, opts);
  }

  /** Queues a delivery again, with the same body and `webhook-id`. */
  redeliver(id: string, deliveryId: string, opts?: RequestOptions): ApiPromise<WebhookDelivery> {
    return this.call('post', `${DELIVERY}/redeliver`, { id, deliveryId }, {}, opts);
  }

  /** A new signing secret; the old one also signs for 24 hours. */
  rotateSecret(id: string, opts?: RequestOptions): ApiPromise<ResponseOf<typeof ROTATE, 'post'>> {
    return this.call('post', ROTATE, { id }, {}, opts);
  }
}
