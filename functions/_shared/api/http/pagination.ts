import { z } from '@hono/zod-openapi';

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
