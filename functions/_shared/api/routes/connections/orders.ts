// The orders of an organization as its connections made them (and those loaded through
// POST …/orders): list with filters, and one order with its items, timeline and review request.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/errors.ts';
import { paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, json, OrgParams, Timestamp } from '../../http/schemas.ts';
import { PLATFORMS } from '../../../core/connections/platforms.ts';
import { orgRoute, router } from '../define.ts';

const TAGS = ['Connections'];
export const ORDER_STATUSES = ['created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded'] as const;
export const SKIP_REASONS = ['no_email', 'suppressed', 'too_old', 'automation_off', 'excluded'] as const;

export const Order = z.object({
  order_id: z.string().openapi({ description: 'What the customer sees (Shopify `#1001`, WooCommerce `number`, …).' }),
  connection_id: z.string().uuid().nullable(),
  platform: z.enum(PLATFORMS).nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.enum(ORDER_STATUSES).nullable().openapi({ description: 'Null for an order loaded through the API.' }),
  items: z.array(z.object({
    product_external_id: z.string(),
    quantity: z.number().int(),
    refunded: z.boolean(),
    product: z.object({ id: z.string().uuid(), name: z.string(), image_url: z.string().nullable() }).nullable()
      .openapi({
        description: 'The catalog’s product of this external id (archived or not), or null when it knows none.',
      }),
  })),
  events: z.array(z.object({
    type: z.string().openapi({ description: 'An order status, or `partially_refunded`.' }),
    occurred_at: Timestamp.openapi({ description: "The event's own time, as the shop gave it." }),
    received_at: Timestamp,
  })).openapi({ description: 'The timeline, by the events’ own time.' }),
  review_request: z.object({ id: z.string().uuid(), status: z.string(), send_at: Timestamp }).nullable(),
  skipped: z.object({ reason: z.enum(SKIP_REASONS), at: Timestamp }).nullable(),
}).openapi('Order');

const OrdersQuery = PaginationQuery.extend({
  status: z.enum(ORDER_STATUSES).optional().openapi({ description: 'Only orders with this status.' }),
  email: z.string().trim().max(320).optional().openapi({ description: "Only this customer's orders (any case)." }),
  connection_id: z.string().uuid().optional().openapi({ description: 'Only the orders this connection made.' }),
});

const OrderParams = OrgParams.extend({
  orderId: z.string().min(1).max(200).openapi({
    param: { name: 'orderId', in: 'path' },
    description: 'The order id, URL-encoded (`%231001` for `#1001`).',
  }),
});

export const orders = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/orders',
      operationId: 'orders.list',
      tags: TAGS,
      summary: 'List orders',
      description: 'Newest first; filter by `status`, `email` (case-insensitive) and `connection_id`.',
      request: { params: OrgParams, query: OrdersQuery },
      responses: { 200: json(Paginated(Order), 'A page of orders') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const where = db`true
        ${q.status ? db`and o.status = ${q.status}` : db``}
        ${q.email ? db`and lower(o.email) = lower(${q.email})` : db``}
        ${q.connection_id ? db`and o.connection_id = ${q.connection_id}` : db``}`;
      const [rows, [{ total }]] = await Promise.all([
        db<{ body: z.infer<typeof Order> }[]>`
          select plaudit.order_json(o.org_id, o.order_id) as body from plaudit.orders o where ${where}
          order by o.created_at desc, o.order_id limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.orders o where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => r.body), total, q), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/orders/{orderId}',
      operationId: 'orders.get',
      tags: TAGS,
      summary: 'Get an order',
      description: 'Its items, its timeline, its review request, or why it made none (`skipped.reason`).',
      request: { params: OrderParams },
      responses: { 200: json(Order, 'The order'), 404: errorResponseSpec('No such order') },
    }),
    async (c) => {
      const { orgId, orderId } = c.req.valid('param');
      const [row] = await c.var.db<{ body: z.infer<typeof Order> | null }[]>`
        select plaudit.order_json(${orgId}, ${orderId}) as body`;
      if (!row?.body) throw new ApiError(404, 'Order not found');
      return c.json(row.body, 200);
    },
  );
