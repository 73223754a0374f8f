// A Shopify connection's write-back log: each product's rating sent (or to be sent, or refused)
// to the shop's metafields, newest first (supabase/schemas/shopify_write_back.sql).
import { z } from '@hono/zod-openapi';
import { offset, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, iso, json, OrgItemParams, Timestamp } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { loadConnection } from './shape.ts';

export const WriteBack = z.object({
  id: z.string().uuid(),
  product_external_id: z.string(),
  status: z.enum(['pending', 'sending', 'retrying', 'sent', 'failed']),
  attempts: z.number().int(),
  rating: z.string().nullable().openapi({ description: 'The `reviews.rating` value set (`4.5`); null: removed.' }),
  rating_count: z.number().int().nullable(),
  last_error: z.string().nullable().openapi({ description: 'Why the last attempt failed, in Shopify’s words.' }),
  next_attempt_at: Timestamp.nullable().openapi({ description: 'When a retry is due (`retrying`).' }),
  sent_at: Timestamp.nullable(),
  created_at: Timestamp,
}).openapi('ShopifyWriteBack');

interface Row {
  id: string;
  product_external_id: string;
  status: z.infer<typeof WriteBack>['status'];
  attempts: number;
  rating: string | null;
  rating_count: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  sent_at: Date | null;
  created_at: Date;
}

export const writeBacks = router().openapi(
  orgRoute('admin', {
    method: 'get',
    path: '/organizations/{orgId}/connections/{id}/write-backs',
    operationId: 'connections.writeBacks',
    tags: ['Connections'],
    summary: "List a Shopify connection's rating write-backs",
    description:
      'Newest first: each product whose published reviews changed, and what was set on its `reviews.rating` and `reviews.rating_count` metafields, or why not. Empty for other platforms and without an access token.',
    request: { params: OrgItemParams, query: PaginationQuery },
    responses: {
      200: json(Paginated(WriteBack), 'A page of write-backs'),
      404: errorResponseSpec('No such connection'),
    },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const db = c.var.db;
    await loadConnection(db, id);
    const [rows, [{ total }]] = await Promise.all([
      db<Row[]>`
        select w.id, p.external_id as product_external_id, w.status, w.attempts, w.rating, w.rating_count,
               w.last_error, w.next_attempt_at, w.sent_at, w.created_at
          from plaudit.shopify_write_backs w join plaudit.products p on p.id = w.product_id
         where w.connection_id = ${id}
         order by w.created_at desc, w.id limit ${q.limit} offset ${offset(q)}`,
      db<
        { total: number }[]
      >`select count(*)::integer as total from plaudit.shopify_write_backs where connection_id = ${id}`,
    ]);
    return c.json(
      paginate(
        rows.map((r) => ({
          ...r,
          next_attempt_at: r.status === 'retrying' ? iso(r.next_attempt_at) : null,
          sent_at: iso(r.sent_at),
          created_at: iso(r.created_at)!,
        })),
        total,
        q,
      ),
      200,
    );
  },
);
