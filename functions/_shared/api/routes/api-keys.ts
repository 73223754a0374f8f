import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';

const ScopeEnum = z.enum(['read', 'write', 'admin']);

const ApiKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  scope: ScopeEnum,
  rate_limit_per_minute: z.number().int().min(1).max(100_000).optional()
    .openapi({ description: 'Requests per minute for this key; the server default when left out.' }),
}).openapi('ApiKeyInput', { example: { name: 'Shop backend', scope: 'write' } });

const ApiKey = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scope: ScopeEnum,
  prefix: z.string().openapi({ example: 'rk_AbCd1234', description: 'The start of the key, to tell keys apart.' }),
  rate_limit_per_minute: z.number().int().nullable(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable().openapi({
    description: 'A rotated key in its grace period stops working at this time; null for a key without an end.',
  }),
}).openapi('ApiKey');

const NewApiKey = ApiKey.omit({ last_used_at: true, expires_at: true }).extend({
  key: z.string().openapi({ description: 'The full key. Shown only in this answer: store it now.' }),
}).openapi('NewApiKey');

const RotatedApiKey = NewApiKey.extend({
  previous_key_expires_at: Timestamp.openapi({
    description: 'When the rotated key stops working: now, or the end of the grace period asked for.',
  }),
}).openapi('RotatedApiKey');

const RotateInput = z.object({
  expires_in_seconds: z.number().int().min(0).max(86_400).optional().openapi({
    description:
      'A grace period during which the old key keeps working beside the new one, so that every client can move to the new key first (at most 24 hours). Left out or 0: the old key stops at once.',
    example: 3600,
  }),
}).openapi('RotateApiKeyInput', { example: { expires_in_seconds: 3600 } });

/** A key works until its revocation time: none, or one still ahead (a grace period). */
const LIVE = 'revoked_at is null or revoked_at > now()';

type KeyRow = {
  id: string;
  name: string;
  scope: 'read' | 'write' | 'admin';
  prefix: string;
  rate_limit_per_minute: number | null;
  created_at: Date;
  last_used_at?: Date | null;
  revoked_at?: Date | null;
  old_key_expires_at?: Date;
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
  expires_at: iso(r.revoked_at ?? null),
});
const toNewApiKey = (r: KeyRow) => {
  const { last_used_at: _, expires_at: __, ...key } = toApiKey(r);
  return { ...key, key: r.key! };
};

const KeyIdentity = z.object({
  organization_id: z.string().uuid().openapi({ description: 'The organization the key belongs to.' }),
  api_key: ApiKey.pick({ id: true, name: true, scope: true, prefix: true }),
}).openapi('KeyIdentity');

export const apiKeys = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/me',
      operationId: 'me.get',
      tags: ['API keys'],
      summary: 'The key making the request',
      description:
        'Its organization and scope: what a client needs to address the organization routes with only a key in hand.',
      responses: { 200: json(KeyIdentity, 'The organization and the key') },
    }),
    async (c) => {
      const { keyId, orgId } = c.var.caller!;
      const [key] = await c.var.db<Pick<KeyRow, 'id' | 'name' | 'scope' | 'prefix'>[]>`
        select id, name, scope, prefix from plaudit.api_keys where id = ${keyId}`;
      return c.json({ organization_id: orgId, api_key: key }, 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/api-keys',
      operationId: 'apiKeys.create',
      tags: ['API keys'],
      summary: 'Generate a new key',
      description: 'The full key is in this answer only; it cannot be retrieved later.',
      request: { params: OrgParams, body: jsonBody(ApiKeyInput) },
      responses: {
        201: json(NewApiKey, 'The new key, with its full value'),
        422: errorResponseSpec('A field failed validation'),
      },
    }, { answerShowsSecret: true }),
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
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/api-keys',
      operationId: 'apiKeys.list',
      tags: ['API keys'],
      summary: 'List active keys',
      description:
        'Keys that work, newest first, rotated keys still in their grace period included (with `expires_at`). Only the prefix of each key is shown.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(ApiKey), 'A page of keys') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db<KeyRow[]>`
          select id, name, scope, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at
          from plaudit.api_keys where ${db.unsafe(LIVE)}
          order by created_at desc, id limit ${page.limit} offset ${offset(page)}`,
        db<{ total: number }[]>`
          select count(*)::integer as total from plaudit.api_keys where ${db.unsafe(LIVE)}`,
      ]);
      return c.json(paginate(rows.map(toApiKey), total, page), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'delete',
      path: '/organizations/{orgId}/api-keys/{id}',
      operationId: 'apiKeys.revoke',
      tags: ['API keys'],
      summary: 'Revoke a key',
      description: 'The key answers 401 from now on, a rotated key in its grace period included.',
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
        where id = ${id} and (${c.var.db.unsafe(LIVE)}) returning id`;
      if (rows.length === 0) throw new ApiError(404, 'API key not found');
      return c.body(null, 204);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/api-keys/{id}/rotate',
      operationId: 'apiKeys.rotate',
      tags: ['API keys'],
      summary: 'Rotate a key',
      description:
        'Issues a new key with the same name, scope and limit, and revokes the old one in the same transaction: at once (the old key answers 401 from now on), or after the grace period `expires_in_seconds`, during which both keys work. A key can be rotated once.',
      request: { params: OrgItemParams, body: jsonBody(RotateInput, false) },
      responses: {
        201: json(RotatedApiKey, 'The new key, with its full value'),
        404: errorResponseSpec('No active key with this id, or the key was rotated already'),
        422: errorResponseSpec('`expires_in_seconds` is not a whole number from 0 to 86,400'),
      },
    }, { answerShowsSecret: true }),
    async (c) => {
      const { id } = c.req.valid('param');
      // The body is optional: a bare POST rotates at once.
      const grace = c.req.header('content-type')?.includes('json') ? c.req.valid('json').expires_in_seconds ?? 0 : 0;
      const [row] = await c.var.db<KeyRow[]>`select * from plaudit.rotate_api_key(${id}, ${grace})`;
      if (!row) throw new ApiError(404, 'API key not found');
      return c.json({ ...toNewApiKey(row), previous_key_expires_at: iso(row.old_key_expires_at!)! }, 201);
    },
  );
