// Shop connections of an organization (admin): create (a `webhook` connection's secret is made by
// the service and shown once), list, read, change, delete, and the test that shows the last events.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/errors.ts';
import { translateDbErrors } from '../../http/db-errors.ts';
import { fieldsGiven } from '../../http/patch.ts';
import { newestFirst, paginate, Paginated, PaginationQuery } from '../../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { asJson } from '../../../core/db/client.ts';
import { orgRoute, router } from '../define.ts';
import {
  Connection,
  CONNECTION_COLUMNS,
  ConnectionInput,
  ConnectionPatch,
  type ConnectionRow,
  ConnectionTest,
  defaultName,
  loadConnection,
  NewConnection,
  settingsOf,
  toConnection,
} from './shape.ts';

const TAGS = ['Connections'];

export const connections = router()
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/connections',
      operationId: 'connections.create',
      tags: TAGS,
      summary: 'Connect a shop',
      description:
        "Ties the organization to the system where its orders happen: `shopify` (`shop_domain`, `webhook_secret`, `access_token`?), `woocommerce` (`store_url`, `webhook_secret`), `stripe` (`webhook_secret`), or `webhook` (any shop; the service makes the secret and answers it once, as `signing_secret`). Point the platform's webhooks at `inbound_url`. Secrets are never shown again.",
      request: { params: OrgParams, body: jsonBody(ConnectionInput) },
      responses: {
        201: json(NewConnection, 'The connection (with its signing secret, for a `webhook` connection)'),
        422: errorResponseSpec('A field failed validation'),
      },
    }, { answerShowsSecret: true }),
    async (c) => {
      const input = c.req.valid('json');
      const db = c.var.db;
      const secret = input.platform === 'webhook' ? null : input.webhook_secret;
      const token = input.platform === 'shopify' ? input.access_token ?? null : null;
      const settings = settingsOf(
        input.platform,
        {
          ...input,
          access_token: input.platform === 'shopify' ? input.access_token ?? null : undefined,
        } as Parameters<typeof settingsOf>[1],
      );
      const [made] = await translateDbErrors(() =>
        db<{ id: string; signing_secret: string | null }[]>`
          select id, signing_secret from plaudit.create_connection(${input.platform}, ${
          input.name ?? defaultName(input)
        },
            ${db.json(asJson(settings))}, ${secret}, ${token})`
      );
      const connection = toConnection(await loadConnection(db, made.id), c.var.config.publicUrl);
      return c.json(made.signing_secret ? { ...connection, signing_secret: made.signing_secret } : connection, 201);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'get',
      path: '/organizations/{orgId}/connections',
      operationId: 'connections.list',
      tags: TAGS,
      summary: 'List connections',
      description: 'Newest first. Secrets are never shown.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Connection), 'A page of connections') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const { rows, total } = await newestFirst<ConnectionRow>(db, {
        table: 'plaudit.connections',
        columns: CONNECTION_COLUMNS,
        where: db`deleted_at is null`,
        ids: 'asc',
      }, page);
      return c.json(paginate(rows.map((r) => toConnection(r, c.var.config.publicUrl)), total, page), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'get',
      path: '/organizations/{orgId}/connections/{id}',
      operationId: 'connections.get',
      tags: TAGS,
      summary: 'Get a connection',
      request: { params: OrgItemParams },
      responses: { 200: json(Connection, 'The connection'), 404: errorResponseSpec('No such connection') },
    }),
    async (c) =>
      c.json(toConnection(await loadConnection(c.var.db, c.req.valid('param').id), c.var.config.publicUrl), 200),
  )
  .openapi(
    orgRoute('admin', {
      method: 'patch',
      path: '/organizations/{orgId}/connections/{id}',
      operationId: 'connections.update',
      tags: TAGS,
      summary: 'Change, disconnect or reconnect a connection',
      description:
        'Fields left out stay as they are. `status: "disconnected"` makes its events answer 401 until it is `active` again. A `webhook` connection keeps the secret the service made.',
      request: { params: OrgItemParams, body: jsonBody(ConnectionPatch) },
      responses: {
        200: json(Connection, 'The connection after the change'),
        404: errorResponseSpec('No such connection'),
        422: errorResponseSpec('A field failed validation, or does not apply to its platform'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      const current = await loadConnection(db, id);
      const p = current.platform;
      const misplaced = [
        ['webhook_secret', p === 'webhook'],
        ['access_token', p !== 'shopify'],
        ['shop_domain', p !== 'shopify'],
        ['store_url', p !== 'woocommerce'],
      ].find(([field, wrong]) => wrong && patch[field as keyof typeof patch] !== undefined);
      if (misplaced) throw new ApiError(422, `${misplaced[0]}: does not apply to a ${p} connection`);
      if (p === 'stripe' && patch.webhook_secret !== undefined && !patch.webhook_secret.startsWith('whsec_')) {
        throw new ApiError(422, 'webhook_secret: must be whsec_…');
      }
      const changes: Record<string, unknown> = {
        ...fieldsGiven(patch, ['name', 'status', 'access_token']),
        ...(patch.webhook_secret !== undefined ? { secret: patch.webhook_secret } : {}),
      };
      if (patch.shop_domain !== undefined || patch.store_url !== undefined || patch.access_token !== undefined) {
        changes.settings = settingsOf(p, patch, current.settings);
      }
      if (Object.keys(changes).length) {
        if (changes.settings) changes.settings = db.json(asJson(changes.settings));
        await translateDbErrors(() => db`update plaudit.connections set ${db(changes)} where id = ${id}`);
      }
      return c.json(toConnection(await loadConnection(db, id), c.var.config.publicUrl), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'delete',
      path: '/organizations/{orgId}/connections/{id}',
      operationId: 'connections.delete',
      tags: TAGS,
      summary: 'Delete a connection',
      description:
        'Its secrets are forgotten and its events answer 404 from then on; the orders and review requests it brought stay.',
      request: { params: OrgItemParams },
      responses: { 204: { description: 'Deleted' }, 404: errorResponseSpec('No such connection') },
    }),
    async (c) => {
      const [{ deleted }] = await c.var.db<{ deleted: boolean }[]>`
        select plaudit.delete_connection(${c.req.valid('param').id}) as deleted`;
      if (!deleted) throw new ApiError(404, 'Connection not found');
      return c.body(null, 204);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/connections/{id}/test',
      operationId: 'connections.test',
      tags: TAGS,
      summary: "Show a connection's last events",
      description:
        'Sends nothing to the platform: answers the last 20 events the connection received, newest first, with their outcome (`accepted`, `duplicate`, `ignored`, `refused: <why>`).',
      request: { params: OrgItemParams },
      responses: { 200: json(ConnectionTest, 'The last events'), 404: errorResponseSpec('No such connection') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.var.db;
      await loadConnection(db, id);
      const [{ events }] = await db<{ events: z.infer<typeof ConnectionTest>['events'] }[]>`
        select plaudit.connection_recent_events(${id}) as events`;
      return c.json({ events }, 200);
    },
  );
