// An organization's settings object: one row per organization in its own table, none until the
// first change (reads answer the defaults until then). GET answers it; PATCH changes the fields
// given, leaves the others as they are, and answers the settings after the change.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../core/db/client.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import { ApiError } from '../http/errors.ts';
import { errorResponseSpec, json, jsonBody, OrgParams } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';

export interface OrgSettings<S extends z.ZodTypeAny, P extends z.ZodObject> {
  /** The settings' path; the operations are `<operation>.get` and `<operation>.update`. */
  path: string;
  operation: string;
  tag: string;
  schema: S;
  patchSchema: P;
  get: { summary: string; description: string };
  update: { summary: string; description: string; answer: string };
  /** The table, schema-qualified, that holds the organization's row. */
  table: string;
  /** The transaction's organization's settings, its defaults where it has no row. */
  read: (db: Tx) => Promise<z.infer<S>>;
  /** The columns a patch sets (its fields left out: none). */
  columns: (patch: z.infer<P>) => Record<string, unknown>;
  /** An update sets `updated_at` (on a table that has no trigger to do it). */
  touchUpdatedAt?: boolean;
  /**
   * Only a member signed in to the dashboard changes them (an API key gets 403 with this message):
   * settings that guard the reviews against the very integrations a key serves.
   */
  changedByMembersOnly?: string;
}

/** The GET and PATCH routes of an organization's settings. */
export function orgSettingsRoutes<S extends z.ZodTypeAny, P extends z.ZodObject>(settings: OrgSettings<S, P>) {
  const { path, operation, tag, table, read, columns, touchUpdatedAt, changedByMembersOnly } = settings;
  // Typed as any schema here, so that the routes' types are not generic; `columns` takes the patch
  // as the caller's schema made it.
  const schema: z.ZodTypeAny = settings.schema;
  const patchSchema: z.ZodObject = settings.patchSchema;
  return router()
    .openapi(
      orgRoute('read', {
        method: 'get',
        path,
        operationId: `${operation}.get`,
        tags: [tag],
        summary: settings.get.summary,
        description: settings.get.description,
        request: { params: OrgParams },
        responses: { 200: json(schema, 'The settings') },
      }),
      async (c) => c.json(await read(c.var.db), 200),
    )
    .openapi(
      orgRoute('admin', {
        method: 'patch',
        path,
        operationId: `${operation}.update`,
        tags: [tag],
        summary: settings.update.summary,
        description: settings.update.description,
        request: { params: OrgParams, body: jsonBody(patchSchema) },
        responses: {
          200: json(schema, settings.update.answer),
          ...(changedByMembersOnly ? { 403: errorResponseSpec('Not a member signed in, or not allowed') } : {}),
          422: errorResponseSpec('A field failed validation'),
        },
      }),
      async (c) => {
        const { orgId } = c.req.valid('param');
        if (changedByMembersOnly && !c.var.caller!.actor.startsWith('member:')) {
          throw new ApiError(403, changedByMembersOnly);
        }
        const changes = columns(c.req.valid('json') as z.infer<P>);
        const db = c.var.db;
        if (Object.keys(changes).length) {
          await translateDbErrors(() =>
            db`
            insert into ${db(table)} ${db({ org_id: orgId, ...changes })}
            on conflict (org_id) do update set ${db(touchUpdatedAt ? { ...changes, updated_at: new Date() } : changes)}`
          );
        }
        return c.json(await read(db), 200);
      },
    );
}
