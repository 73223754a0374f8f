import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { keyRoute, router } from './define.ts';

const ScopeEnum = z.enum(['read', 'write', 'admin']);

const ApiKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  scope: ScopeEnum,
  rate_limit_per_minute: z.number().int().min(1).max(100_000).optional()
    .openapi({ description: 'Requests per minute for this key; the server default when left out.' }),
}).openapi('ApiKeyInput');

const ApiKey = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scope: ScopeEnum,
  prefix: z.string().openapi({ example: 'rk_AbCd1234', description: 'The start of the key, to tell keys apart.' }),
  rate_limit_per_minute: z.number().int().nullable(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
}).openapi('ApiKey');

const NewApiKey = ApiKey.omit({ last_used_at: true }).extend({
  key: z.string().openapi({ description: 'The full key. Shown only in this answer: store it now.' }),
}).openapi('NewApiKey');

type KeyRow = {
  id: string;
  name: string;
  scope: 'read' | 'write' | 'admin';
  prefix: string;
  rate_limit_per_minute: number | null;
  created_at: Date;
  last_used_at?: Date | null;
  key?: string;
};

const toApiKey = (r: KeyRow) => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  rate_limit_per_minute: r.rate_limit_per_minute,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at ?? null),
});
const toNewApiKey = (r: KeyRow) => {
  const { last_used_at: _, ...key } = toApiKey(r);
  return { ...key, key: r.key! };
};

export const apiKeys = router()
  .openapi(
    keyRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/api-keys',
      tags: ['API keys'],
      summary: 'Generate a new key',
      description: 'The full key is in this answer only; it cannot be retrieved later.',
      request: {
        params: OrgParams,
        body: { required: true, content: { 'application/json': { schema: ApiKeyInput } } },
      },
      responses: {
        201: json(NewApiKey, 'The new key, with its full value'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const input = c.req.valid('json');
      const [row] = await c.var.db<KeyRow[]>`
        select * from plaudit.issue_api_key(${orgId}, ${input.name}, ${input.scope},
                                            ${input.rate_limit_per_minute ?? null})`;
      return c.json(toNewApiKey(row), 201);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/api-keys',
      tags: ['API keys'],
      summary: 'List active keys',
      description: 'Active keys, newest first. Only the prefix of each key is shown.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(ApiKey), 'A page of keys') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db<KeyRow[]>`
          select id, name, scope, prefix, rate_limit_per_minute, created_at, last_used_at
          from plaudit.api_keys where revoked_at is null
          order by created_at desc, id limit ${page.limit} offset ${offset(page)}`,
        db<{ total: number }[]>`
          select count(*)::integer as total from plaudit.api_keys where revoked_at is null`,
      ]);
      return c.json(paginate(rows.map(toApiKey), total, page), 200);
    },
  )
  .openapi(
    keyRoute('admin', {
      method: 'delete',
      path: '/organizations/{orgId}/api-keys/{id}',
      tags: ['API keys'],
      summary: 'Revoke a key',
      description: 'The key answers 401 from now on.',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Revoked' },
        404: errorResponseSpec('No active key with this id'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const rows = await c.var.db`
        update plaudit.api_keys set revoked_at = now()
        where id = ${id} and revoked_at is null returning id`;
      if (rows.length === 0) throw new ApiError(404, 'API key not found');
      return c.body(null, 204);
    },
  )
  .openapi(
    keyRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/api-keys/{id}/rotate',
      tags: ['API keys'],
      summary: 'Rotate a key',
      description:
        'Issues a new key with the same name, scope and limit, and revokes the old one in the same transaction: the old key answers 401 at once.',
      request: { params: OrgItemParams },
      responses: {
        201: json(NewApiKey, 'The new key, with its full value'),
        404: errorResponseSpec('No active key with this id'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const [row] = await c.var.db<KeyRow[]>`select * from plaudit.rotate_api_key(${id})`;
      if (!row) throw new ApiError(404, 'API key not found');
      return c.json(toNewApiKey(row), 201);
    },
  );
