import { z } from '@hono/zod-openapi';
import type postgres from 'postgres';
import type { Tx } from '../../core/db/client.ts';

/** Deep enough for any list (100 items a page: 100 million rows), small enough for an int4 offset. */
export const MAX_PAGE = 1_000_000;

export const PaginationQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1)
    .openapi({ description: `Page number, from 1 to ${MAX_PAGE.toLocaleString('en')}.` }),
  limit: z.coerce.number().int().min(1).max(100).default(20)
    .openapi({ description: 'Items per page, 1 to 100.' }),
});

export type Pagination = z.infer<typeof PaginationQuery>;

export function paginationMeta() {
  return z.object({
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  });
}

/** The pagination envelope every list answers with. */
export function Paginated<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item), meta: paginationMeta() });
}

export function paginate<T>(data: T[], total: number, { page, limit }: Pagination) {
  return { data, meta: { total, page, limit, totalPages: Math.ceil(total / limit) } };
}

export function offset({ page, limit }: Pagination): number {
  return (page - 1) * limit;
}

/** Which rows of which tenant table a page lists, newest first. */
export interface NewestFirstList {
  /** The table, schema-qualified (`plaudit.exports`); written as a quoted identifier. */
  table: string;
  /** What each row answers: column names, or a fragment where one is an expression. */
  columns: string[] | postgres.Fragment;
  /** The rows listed; all of them when left out. */
  where?: postgres.Fragment;
  /** Rows created in the same instant, by id in this direction: the one of the table's index. */
  ids: 'asc' | 'desc';
}

/**
 * A page of a tenant table's rows, newest first, and how many rows the list holds in all. Row-level
 * security keeps the transaction's tenant to its own rows.
 */
export async function newestFirst<Row extends object>(
  db: Tx,
  { table, columns, where = db`true`, ids }: NewestFirstList,
  page: Pagination,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db<Row[]>`
      select ${Array.isArray(columns) ? db(columns) : columns} from ${db(table)} where ${where}
      order by created_at desc, id ${ids === 'asc' ? db`asc` : db`desc`} limit ${page.limit} offset ${offset(page)}`,
    db<{ total: number }[]>`select count(*)::integer as total from ${db(table)} where ${where}`,
  ]);
  return { rows, total };
}
