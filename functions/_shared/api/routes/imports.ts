// Imports of reviews from other platforms (docs/trust.md): the file is read and checked here, its
// rows staged with the job in one statement (plaudit.create_import), and applied by the worker.
import { z } from '@hono/zod-openapi';
import { IMPORT_FORMATS, PLATFORM_NAMES } from '../../core/imports/formats.ts';
import { DATE_ORDERS, KEPT_REJECTIONS, MAX_IMPORT_BYTES, readImport } from '../../core/imports/read.ts';
import { asJson } from '../../core/db/client.ts';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, json, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';

const TAGS = ['Imports'];

const Format = z.enum(IMPORT_FORMATS).openapi({
  description: `The file's platform: ${
    IMPORT_FORMATS.map((f) => `\`${f}\` (${PLATFORM_NAMES[f]})`).join(', ')
  }. Left out, it is detected from the header row when only one format fits.`,
});

const ImportInput = z.object({
  file: z.custom<File>((v) => v instanceof File, 'must be a file').openapi({
    type: 'string',
    format: 'binary',
    description:
      'The CSV the platform exported, at most 20 MB: UTF-8 (with or without a byte-order mark) or Windows-1252.',
  }),
  format: Format.optional(),
  dry_run: z.enum(['true', 'false']).default('false').openapi({
    description: '`true`: read and count everything, write nothing.',
  }),
  date_order: z.enum(DATE_ORDERS).optional().openapi({
    description:
      'How the file writes day and month in dates like `07/04/2024`: `dmy` (7 April) or `mdy` (July 4). Left out, a date whose day and month are both 12 or less (and differ) is refused with its row; a day over 12 tells the order by itself.',
  }),
}).openapi('ImportInput');

const Import = z.object({
  id: z.string().uuid(),
  format: z.enum(IMPORT_FORMATS),
  dry_run: z.boolean(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  total_rows: z.number().int().openapi({ description: "The file's rows, the header aside." }),
  imported: z.number().int().openapi({ description: 'Reviews imported (for a dry run: that would be).' }),
  duplicates: z.number().int().openapi({
    description: 'Rows already imported (by this file before, or another import), or repeated in the file.',
  }),
  rejected: z.array(z.object({ row: z.number().int(), message: z.string() })).openapi({
    description:
      `The first ${KEPT_REJECTIONS} rows refused, in file order: each row's number as a spreadsheet shows it (the header is row 1) and why.`,
  }),
  rejected_count: z.number().int().openapi({
    description: 'Every row refused, those listed in `rejected` and the rest.',
  }),
  created_at: Timestamp,
  completed_at: Timestamp.nullable(),
}).openapi('Import');

type ImportBody = z.infer<typeof Import>;

export const imports = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/imports',
      operationId: 'imports.create',
      tags: TAGS,
      summary: 'Import reviews from another platform',
      description:
        'Reads the file now (its format, its header, each row: a row that cannot be taken is counted in `rejected_count`, the first hundred listed in `rejected` with their number and reason; the rest go in) and imports it in the background: poll the job, or wait for `import.completed`. Imported reviews keep their dates, replies and products (created when missing) and are never shown as verified: what the platform claimed is kept as `imported_as_verified`. The same file twice imports nothing new (`duplicates`). One `import.completed` event, not a `review.created` per review; one entry in the moderation chain.',
      request: {
        params: OrgParams,
        body: { content: { 'multipart/form-data': { schema: ImportInput } }, required: true },
      },
      responses: {
        202: json(Import, 'The job, queued'),
        413: errorResponseSpec('The file is larger than 20 MB'),
        422: errorResponseSpec('The file cannot be read: its encoding, its header, or the format chosen'),
      },
    }),
    async (c) => {
      const input = c.req.valid('form');
      if (input.file.size > MAX_IMPORT_BYTES) throw new ApiError(413, 'file: larger than 20 MB');
      const read = readImport(new Uint8Array(await input.file.arrayBuffer()), input.format ?? null, {
        dateOrder: input.date_order ?? null,
        detectLanguages: c.var.config.detectLanguages,
      });
      if (!read.ok) throw new ApiError(422, read.message);
      const db = c.var.db;
      const [row] = await db<{ body: ImportBody }[]>`
        select plaudit.import_json(i) as body
          from plaudit.create_import(${read.format}, ${input.dry_run === 'true'}, ${read.total_rows},
                                     ${db.json(asJson(read.reviews))}, ${db.json(asJson(read.rejected))},
                                     ${c.var.caller!.actor}, ${read.rejected_count}, ${read.duplicates}) i`;
      return c.json(row.body, 202);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/imports',
      operationId: 'imports.list',
      tags: TAGS,
      summary: 'List imports',
      description: 'Newest first.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Import), 'A page of imports') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db<{ body: ImportBody }[]>`
          select plaudit.import_json(i) as body from plaudit.imports i
          order by i.created_at desc, i.id limit ${page.limit} offset ${offset(page)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.imports`,
      ]);
      return c.json(paginate(rows.map((r) => r.body), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/imports/{id}',
      operationId: 'imports.get',
      tags: TAGS,
      summary: 'Get an import',
      request: { params: OrgItemParams },
      responses: {
        200: json(Import, 'The import'),
        404: errorResponseSpec('No import with this id in this organization'),
      },
    }),
    async (c) => {
      const [row] = await c.var.db<{ body: ImportBody }[]>`
        select plaudit.import_json(i) as body from plaudit.imports i where i.id = ${c.req.valid('param').id}`;
      if (!row) throw new ApiError(404, 'Import not found');
      return c.json(row.body, 200);
    },
  );
