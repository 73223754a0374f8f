// The suppression list: addresses that get no review requests.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/errors.ts';
import { offset, paginate, Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, iso, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { Suppression, SuppressionInput, SuppressionQuery } from './shared.ts';

export const reviewRequestSuppressions = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/suppressions',
      operationId: 'suppressions.list',
      tags: ['Review requests'],
      summary: 'List the suppression list',
      description:
        "Addresses that never get review requests (or reminders) from this organization: unsubscribed, hard-bounced, complained, added by hand, or erased at the reviewer's request (kept only as a hash: `email` is `null`). Newest first.",
      request: { params: OrgParams, query: SuppressionQuery },
      responses: { 200: json(Paginated(Suppression), 'A page of suppressed addresses') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      // By the address's key: an erased address, kept only as its key, is found too.
      const where = q.email ? db`email_key = plaudit.email_key(org_id, ${q.email})` : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<(Omit<z.infer<typeof Suppression>, 'created_at'> & { created_at: Date })[]>`
          select id, email, reason, request_id, created_at from plaudit.email_suppressions where ${where}
          order by created_at desc, id desc limit ${q.limit} offset ${offset(q)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.email_suppressions where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => ({ ...r, created_at: iso(r.created_at)! })), total, q), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/suppressions',
      operationId: 'suppressions.create',
      tags: ['Review requests'],
      summary: 'Suppress an address',
      description:
        'Adds an address by hand (reason `manual`); e-mails still queued for it are withdrawn. An address already on the list answers 409.',
      request: { params: OrgParams, body: jsonBody(SuppressionInput) },
      responses: {
        201: json(Suppression, 'The entry'),
        409: errorResponseSpec('The address is on the list already'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const { email } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await db<(Omit<z.infer<typeof Suppression>, 'created_at'> & { created_at: Date })[]>`
        insert into plaudit.email_suppressions (org_id, email, reason) values (${orgId}, ${email}, 'manual')
        on conflict (org_id, email_key) do nothing
        returning id, email, reason, request_id, created_at`;
      if (!row) throw new ApiError(409, 'This address is on the suppression list already');
      return c.json({ ...row, created_at: iso(row.created_at)! }, 201);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'delete',
      path: '/organizations/{orgId}/suppressions/{id}',
      operationId: 'suppressions.delete',
      tags: ['Review requests'],
      summary: 'Lift a suppression',
      description: 'The address may get review requests again (requests made before stay as they are).',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Lifted' },
        404: errorResponseSpec('No entry with this id in this organization'),
      },
    }),
    async (c) => {
      const rows = await c.var.db`delete from plaudit.email_suppressions where id = ${
        c.req.valid('param').id
      } returning id`;
      if (rows.length === 0) throw new ApiError(404, 'Suppression not found');
      return c.body(null, 204);
    },
  );
