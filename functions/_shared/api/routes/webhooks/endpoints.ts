// Webhook endpoints: register, list, read, change, delete, test, rotate the secret.
import { type EventName, sampleData } from './events.ts';
import { ApiError } from '../../http/errors.ts';
import { fieldsGiven } from '../../http/patch.ts';
import { newestFirst, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, iso, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { sendDelivery, type SignedDelivery } from '../../../core/webhooks/send.ts';
import { orgRoute, router } from '../define.ts';
import {
  checkUrl,
  deliveriesQuery,
  Delivery,
  ENDPOINT_COLUMNS,
  EndpointRow,
  loadEndpoint,
  NewWebhook,
  RotatedSecret,
  TEST_EVENT,
  TestInput,
  timeoutMs,
  toDelivery,
  toWebhook,
  Webhook,
  WebhookInput,
  WebhookPatch,
  webhookResolver,
} from './shared.ts';
import { asJson } from '../../../core/db/client.ts';

export const webhookEndpoints = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/webhooks',
      operationId: 'webhooks.create',
      tags: ['Webhooks'],
      summary: 'Register a webhook endpoint',
      description:
        'Answers the signing secret (`whsec_…`) once. Each delivery is a POST of `{"event","timestamp","data"}` signed with it: `x-webhook-signature` (hex HMAC-SHA256 of the body, keyed with the secret string) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`.',
      request: { params: OrgParams, body: jsonBody(WebhookInput) },
      responses: {
        201: json(NewWebhook, 'The endpoint, with its secret'),
        422: errorResponseSpec('A field failed validation, or the URL is not allowed'),
      },
    }, { answerShowsSecret: true }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const input = c.req.valid('json');
      await checkUrl(input.url, c.var.config.environment);
      const db = c.var.db;
      const [created] = await db<{ id: string; secret: string }[]>`
        select id, secret from plaudit.create_webhook_endpoint(
          ${orgId}, ${input.url}, ${db.array(input.events)}::text[], ${input.description ?? null})`;
      const row = await loadEndpoint(db, created.id);
      return c.json({ ...toWebhook(row), secret: created.secret }, 201);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/webhooks',
      operationId: 'webhooks.list',
      tags: ['Webhooks'],
      summary: 'List registered webhooks',
      description: 'Newest first. Secrets are never shown.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Webhook), 'A page of webhooks') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const { rows, total } = await newestFirst<EndpointRow>(
        db,
        { table: 'plaudit.webhook_endpoints', columns: db.unsafe(ENDPOINT_COLUMNS), ids: 'asc' },
        page,
      );
      return c.json(paginate(rows.map(toWebhook), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/webhooks/{id}',
      operationId: 'webhooks.get',
      tags: ['Webhooks'],
      summary: 'Get a webhook',
      request: { params: OrgItemParams },
      responses: { 200: json(Webhook, 'The webhook'), 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => c.json(toWebhook(await loadEndpoint(c.var.db, c.req.valid('param').id)), 200),
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/webhooks/{id}',
      operationId: 'webhooks.update',
      tags: ['Webhooks'],
      summary: 'Change, enable or disable a webhook',
      description:
        'Fields left out stay as they are. `enabled: false` cancels what is queued for the endpoint; `enabled: true` re-enables an endpoint disabled by you, by a 410 answer or after 5 days of failures.',
      request: { params: OrgItemParams, body: jsonBody(WebhookPatch) },
      responses: {
        200: json(Webhook, 'The updated webhook'),
        404: errorResponseSpec('No such webhook'),
        422: errorResponseSpec('A field failed validation, or the URL is not allowed'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      await loadEndpoint(db, id);
      if (patch.url !== undefined) await checkUrl(patch.url, c.var.config.environment);
      const changes = fieldsGiven(patch, ['url', 'description', 'enabled']);
      if (Object.keys(changes).length) {
        await db`update plaudit.webhook_endpoints set ${db(changes)} where id = ${id}`;
      }
      if (patch.events !== undefined) {
        await db`update plaudit.webhook_endpoints set events = ${db.array(patch.events)}::text[] where id = ${id}`;
      }
      return c.json(toWebhook(await loadEndpoint(db, id)), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'delete',
      path: '/organizations/{orgId}/webhooks/{id}',
      operationId: 'webhooks.delete',
      tags: ['Webhooks'],
      summary: 'Delete a webhook',
      description: 'Deliveries stop at once; the delivery log goes with it.',
      request: { params: OrgItemParams },
      responses: { 204: { description: 'Deleted' }, 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => {
      const rows = await c.var.db`delete from plaudit.webhook_endpoints where id = ${
        c.req.valid('param').id
      } returning id`;
      if (rows.length === 0) throw new ApiError(404, 'Webhook not found');
      return c.body(null, 204);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/webhooks/{id}/test',
      operationId: 'webhooks.test',
      tags: ['Webhooks'],
      summary: 'Send a test event',
      description:
        'Delivers a signed `webhook.test` event now (or a sample of the event named in the body), once, without retries, and answers with the outcome. The attempt appears in the delivery log.',
      request: { params: OrgItemParams, body: jsonBody(TestInput, false) },
      responses: {
        200: json(Delivery, 'The test delivery: `status` is `succeeded` when the endpoint answered 2xx'),
        404: errorResponseSpec('No such webhook'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId, id } = c.req.valid('param');
      const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
      const event: EventName = body?.event ?? TEST_EVENT;
      const db = c.var.db;
      const [d] = await db<SignedDelivery[]>`
        select * from plaudit.create_test_delivery(${id}, ${event}, ${db.json(asJson(sampleData(event, id, orgId)))})`;
      if (!d) throw new ApiError(404, 'Webhook not found');
      const result = await sendDelivery(d, {
        environment: c.var.config.environment,
        timeoutMs: timeoutMs(),
        resolve: webhookResolver(),
      });
      await db`
        select plaudit.record_test_delivery(${d.id}, ${d.claim_token}, ${result.statusCode}, ${result.durationMs},
          ${result.error}, ${result.responseSnippet}, ${result.outcome === 'succeeded'})`;
      const [row] = await deliveriesQuery(db, { endpointId: id, deliveryId: d.id });
      return c.json(toDelivery(row), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/webhooks/{id}/rotate-secret',
      operationId: 'webhooks.rotateSecret',
      tags: ['Webhooks'],
      summary: 'Rotate the signing secret',
      description:
        'Issues a new secret, shown only in this answer. For 24 hours deliveries are signed with both: `webhook-signature` carries two `v1,` signatures, `x-webhook-signature` uses the new secret and `x-webhook-signature-previous` the old one.',
      request: { params: OrgItemParams },
      responses: { 200: json(RotatedSecret, 'The new secret'), 404: errorResponseSpec('No such webhook') },
    }, { answerShowsSecret: true }),
    async (c) => {
      const [row] = await c.var.db<{ id: string; secret: string; previous_secret_expires_at: Date }[]>`
        select * from plaudit.rotate_webhook_secret(${c.req.valid('param').id})`;
      if (!row) throw new ApiError(404, 'Webhook not found');
      return c.json({
        id: row.id,
        secret: row.secret,
        previous_secret_expires_at: iso(row.previous_secret_expires_at)!,
      }, 200);
    },
  );
