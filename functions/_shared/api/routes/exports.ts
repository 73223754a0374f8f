import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { newestFirst, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import {
  ChainHead,
  errorResponseSpec,
  iso,
  json,
  jsonBody,
  OrgItemParams,
  OrgParams,
  Timestamp,
  Uuid,
} from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { Review } from './reviews/shape.ts';
import { openTenantTransaction, type TenantTransaction } from '../../core/db/roles.ts';
import { asJson } from '../../core/db/client.ts';

const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a calendar date')
  .openapi({ example: '2026-01-31' });

export const Filters = z.object({
  startDate: DateOnly.optional().openapi({ description: 'Reviews created on or after this day (UTC).' }),
  endDate: DateOnly.optional().openapi({ description: 'Reviews created on or before this day (UTC), inclusive.' }),
  rating: z.number().int().min(1).max(5).optional(),
  form_id: Uuid.optional(),
  include_hidden: z.boolean().optional().openapi({
    description: 'Include reviews hidden by moderation; false by default.',
  }),
}).refine((f) => !f.startDate || !f.endDate || f.startDate <= f.endDate, {
  message: 'must not be before startDate',
  path: ['endDate'],
}).openapi('ExportFilters');

const ExportKind = z.enum(['reviews', 'questions']).openapi({
  description:
    "`reviews` (the default): the organization's reviews; `questions`: its published questions (hidden ones with `include_hidden`) with their visible answers, the JSON file an array of Question objects.",
});

const ExportInput = z.object({
  kind: ExportKind.default('reviews'),
  format: z.enum(['csv', 'json']),
  filters: Filters.optional(),
}).refine((e) => e.kind === 'reviews' || (e.filters?.rating === undefined && e.filters?.form_id === undefined), {
  message: 'rating and form_id filter reviews only',
  path: ['filters'],
}).openapi('ExportInput', { example: { format: 'csv', filters: { startDate: '2026-01-01', endDate: '2026-01-31' } } });

const ExportJob = z.object({
  id: Uuid,
  kind: ExportKind,
  format: z.enum(['csv', 'json']),
  filters: Filters,
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  row_count: z.number().int(),
  byte_size: z.number().int(),
  error: z.string().nullable().openapi({ description: 'Why the export failed.' }),
  created_at: Timestamp,
  completed_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable().openapi({
    description: 'The file can be downloaded until then (7 days after completion).',
  }),
  download_url: z.string().nullable(),
  moderation_chain: ChainHead.openapi({
    description:
      "The moderation trail's head when the export was created; the download repeats it in the `Plaudit-Moderation-Chain` header (`entries=N; head=…`). Keep it with the file: a later rewrite of the trail up to it is detectable (SECURITY.md).",
  }),
}).openapi('ExportJob');

type ExportRow = {
  id: string;
  org_id: string;
  kind: 'reviews' | 'questions';
  format: 'csv' | 'json';
  filters: Record<string, unknown>;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  row_count: number;
  byte_size: string | number;
  chunk_count: number;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date | null;
  moderation_chain_entries: string | number;
  moderation_chain_head: string | null;
  public_url: string | null;
};

const COLUMNS =
  'id, org_id, kind, format, filters, status, row_count, byte_size, chunk_count, error, created_at, completed_at, ' +
  "expires_at, moderation_chain_entries, encode(moderation_chain_head, 'hex') as moderation_chain_head, public_url";

function chainHead(r: ExportRow) {
  return { entries: Number(r.moderation_chain_entries), head: r.moderation_chain_head };
}

/**
 * The job as the API shows it. Its download URL starts with the public address recorded when the
 * export was made, as export.completed's does (plaudit.export_download_url): the two are equal.
 */
function toJob(r: ExportRow, publicUrl: string) {
  return {
    id: r.id,
    kind: r.kind,
    format: r.format,
    filters: r.filters,
    status: r.status,
    row_count: r.row_count,
    byte_size: Number(r.byte_size),
    error: r.error,
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
    expires_at: iso(r.expires_at),
    download_url: r.status === 'completed'
      ? `${r.public_url ?? publicUrl}/api/v1/organizations/${r.org_id}/exports/${r.id}/download`
      : null,
    moderation_chain: chainHead(r),
  };
}

export const exports = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/exports',
      operationId: 'exports.create',
      tags: ['Exports'],
      summary: 'Create an export job',
      description:
        "Starts generating a file of the organization's reviews, oldest first. Poll the job, or wait for the `export.completed` event, then download it. Dates filter on `created_at`, both ends inclusive, in UTC. CSV cells that begin with `=`, `+`, `-`, `@`, tab or carriage return get a leading apostrophe so that spreadsheets do not run them as formulas.",
      request: { params: OrgParams, body: jsonBody(ExportInput) },
      responses: {
        201: json(ExportJob, 'The job, pending'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const input = c.req.valid('json');
      const filters: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input.filters ?? {})) if (v !== undefined) filters[k] = v;
      const db = c.var.db;
      const [row] = await db<ExportRow[]>`
        insert into plaudit.exports (org_id, kind, format, filters, created_by_key_id, public_url)
        values (${orgId}, ${input.kind}, ${input.format}, ${db.json(asJson(filters))}, ${c.var.caller!.keyId},
                ${c.var.config.publicUrl})
        returning ${db.unsafe(COLUMNS)}`;
      return c.json(toJob(row, c.var.config.publicUrl), 201);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/exports',
      operationId: 'exports.list',
      tags: ['Exports'],
      summary: 'List export jobs',
      description: 'Newest first.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(ExportJob), 'A page of export jobs') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const { rows, total } = await newestFirst<ExportRow>(
        db,
        { table: 'plaudit.exports', columns: db.unsafe(COLUMNS), ids: 'asc' },
        page,
      );
      return c.json(paginate(rows.map((r) => toJob(r, c.var.config.publicUrl)), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/exports/{id}',
      operationId: 'exports.get',
      tags: ['Exports'],
      summary: 'Get export job status',
      request: { params: OrgItemParams },
      responses: { 200: json(ExportJob, 'The job'), 404: errorResponseSpec('No such export') },
    }),
    async (c) => {
      const [row] = await c.var.db.unsafe<ExportRow[]>(
        `select ${COLUMNS} from plaudit.exports where id = $1`,
        [c.req.valid('param').id],
      );
      if (!row) throw new ApiError(404, 'Export not found');
      return c.json(toJob(row, c.var.config.publicUrl), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/exports/{id}/download',
      operationId: 'exports.download',
      tags: ['Exports'],
      summary: 'Download the export file',
      description:
        '`text/csv` or `application/json` (an array of Review objects), as an attachment. 409 until the job is completed; 410 once the file has expired.',
      request: { params: OrgItemParams },
      responses: {
        200: {
          description: 'The file',
          content: {
            'text/csv': { schema: z.string() },
            'application/json': { schema: z.array(Review) },
          },
        },
        404: errorResponseSpec('No such export'),
        409: errorResponseSpec('The export is not completed yet, or failed'),
        410: errorResponseSpec('The file has expired'),
      },
    }),
    async (c) => {
      const { orgId, id } = c.req.valid('param');
      const [job] = await c.var.db.unsafe<ExportRow[]>(
        `select ${COLUMNS} from plaudit.exports where id = $1`,
        [id],
      );
      if (!job) throw new ApiError(404, 'Export not found');
      if (job.status !== 'completed') {
        throw new ApiError(
          409,
          job.status === 'failed'
            ? `The export failed: ${job.error ?? 'unknown reason'}`
            : `The export is not ready yet (status ${job.status}); try again when it is completed`,
        );
      }
      if (job.expires_at && job.expires_at.getTime() <= Date.now()) {
        throw new ApiError(410, 'The export file has expired; create a new export');
      }
      const day = iso(job.created_at)!.slice(0, 10);
      const filename = `reviews-${day}-${job.id.slice(0, 8)}.${job.format}`;
      // The chunks are read one at a time, in a transaction of the stream's own (the request's
      // transaction ends when this handler returns).
      const sql = c.var.sql;
      let tenant: TenantTransaction | null = null;
      let seq = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            tenant ??= await openTenantTransaction(sql, 'plaudit_api', orgId, { readOnly: true });
            if (seq >= job.chunk_count) {
              await tenant.commit();
              controller.close();
              return;
            }
            // Raw: the chunk's bytes as they came off the wire (UTF-8 already), never decoded
            // into a string and encoded again.
            const [chunk] = await tenant.tx`
              select body from plaudit.export_chunks where export_id = ${id} and seq = ${seq}`.raw();
            seq += 1;
            if (!chunk) throw new Error(`export chunk ${seq - 1} is missing`);
            controller.enqueue(chunk[0] as unknown as Uint8Array);
          } catch (err) {
            await tenant?.rollback();
            controller.error(err);
          }
        },
        async cancel() {
          await tenant?.rollback();
        },
      });
      return c.body(stream, 200, {
        'Content-Type': job.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Content-Length': String(Number(job.byte_size)),
        'Cache-Control': 'private, no-store',
        'Plaudit-Moderation-Chain': `entries=${chainHead(job).entries}; head=${chainHead(job).head ?? ''}`,
      }) as never;
    },
  );
