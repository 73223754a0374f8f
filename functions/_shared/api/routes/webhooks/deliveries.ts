// Webhook deliveries: the log of an endpoint, one delivery with its attempts, redelivery.
import { ApiError } from '../../http/errors.ts';
import { offset, paginate, Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, json, OrgItemParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import {
  deliveriesQuery,
  Delivery,
  DeliveryParams,
  DeliveryQuery,
  DeliveryWithPayload,
  loadEndpoint,
  toDelivery,
} from './shared.ts';

export const webhookDeliveries = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/webhooks/{id}/deliveries',
      operationId: 'webhookDeliveries.list',
      tags: ['Webhooks'],
      summary: 'Delivery log',
      description:
        'Deliveries to this endpoint, newest first, each with its attempts: status code, duration, error and the first KiB of the answer. Kept 30 days.',
      request: { params: OrgItemParams, query: DeliveryQuery },
      responses: { 200: json(Paginated(Delivery), 'A page of deliveries'), 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { status, ...page } = c.req.valid('query');
      const db = c.var.db;
      await loadEndpoint(db, id);
      const [rows, [{ total }]] = await Promise.all([
        deliveriesQuery(db, { endpointId: id, status, limit: page.limit, offset: offset(page) }),
        db<{ total: number }[]>`
          select count(*)::integer as total from plaudit.webhook_deliveries
          where endpoint_id = ${id} ${status ? db`and status = ${status}` : db``}`,
      ]);
      return c.json(paginate(rows.map(toDelivery), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}',
      operationId: 'webhookDeliveries.get',
      tags: ['Webhooks'],
      summary: 'Get one delivery, with its body',
      request: { params: DeliveryParams },
      responses: { 200: json(DeliveryWithPayload, 'The delivery'), 404: errorResponseSpec('No such delivery') },
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      const [row] = await deliveriesQuery(c.var.db, { endpointId: id, deliveryId, payload: true });
      if (!row) throw new ApiError(404, 'Delivery not found');
      return c.json({ ...toDelivery(row), payload: row.payload! }, 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      operationId: 'webhookDeliveries.redeliver',
      tags: ['Webhooks'],
      summary: 'Redeliver one delivery',
      description:
        'Queues the delivery again, now, with the same body and the same `webhook-id` (so a receiver that already processed it can tell), and restarts its retry schedule.',
      request: { params: DeliveryParams },
      responses: {
        202: json(Delivery, 'The delivery, queued'),
        404: errorResponseSpec('No such delivery'),
        409: errorResponseSpec('The delivery is still queued, or the endpoint is disabled'),
      },
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      const db = c.var.db;
      const endpoint = await loadEndpoint(db, id);
      const [current] = await db<{ status: string }[]>`
        select status from plaudit.webhook_deliveries where id = ${deliveryId} and endpoint_id = ${id} for update`;
      if (!current) throw new ApiError(404, 'Delivery not found');
      if (!endpoint.enabled) throw new ApiError(409, 'The webhook is disabled; enable it first');
      if (current.status === 'pending') throw new ApiError(409, 'The delivery is already queued');
      await db`
        update plaudit.webhook_deliveries
        set status = 'pending', schedule_step = 0, next_attempt_at = now(), locked_until = null, claim_token = null
        where id = ${deliveryId}`;
      await db`select pg_notify('plaudit_outbox', 'webhook')`;
      const [row] = await deliveriesQuery(db, { endpointId: id, deliveryId });
      return c.json(toDelivery(row), 202);
    },
  );
