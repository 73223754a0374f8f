// The product catalog (shapes in shape.ts): the list, one product, its changes, and the bulk sync
// by external_id.
import { asJson } from '../../../core/db/client.ts';
import { newestFirst, paginate, Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { fieldErrorsOfIssues, messageOf } from '../../http/validation.ts';
import { orgRoute, router } from '../define.ts';
import {
  BulkProductsInput,
  BulkProductsResult,
  columnsOf,
  Product,
  productColumns,
  ProductInput,
  ProductListQuery,
  productNotFound,
  ProductPatch,
  type ProductRow,
  selectProducts,
  toProduct,
  translateProductErrors,
} from './shape.ts';

const TAGS = ['Products'];

/** `text` inside an ILIKE pattern, matched as written (its % and _ are not wildcards). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export const products = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/products',
      operationId: 'products.list',
      tags: TAGS,
      summary: 'List products',
      description: 'Newest first, archived products included unless `archived` says. Filters combine with AND.',
      request: { params: OrgParams, query: ProductListQuery },
      responses: { 200: json(Paginated(Product), 'A page of products') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const conditions = [db`true`];
      if (q.q) conditions.push(db`name ilike ${'%' + likeEscaped(q.q) + '%'}`);
      if (q.external_id) conditions.push(db`external_id = ${q.external_id}`);
      if (q.group) conditions.push(db`group_key = ${q.group}`);
      if (q.archived) conditions.push(q.archived === 'true' ? db`archived` : db`not archived`);
      const { rows, total } = await newestFirst<ProductRow>(
        db,
        {
          table: 'plaudit.products',
          columns: productColumns(db),
          where: conditions.reduce((a, b) => db`${a} and ${b}`),
          ids: 'desc',
        },
        q,
      );
      return c.json(paginate(rows.map(toProduct), total, q), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/products',
      operationId: 'products.create',
      tags: TAGS,
      summary: 'Add a product',
      request: { params: OrgParams, body: jsonBody(ProductInput) },
      responses: {
        201: json(Product, 'The new product'),
        409: errorResponseSpec('A product with this external_id exists already'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const db = c.var.db;
      const columns = { org_id: orgId, ...columnsOf(c.req.valid('json')) };
      const [row] = await translateProductErrors(() =>
        db<ProductRow[]>`
          insert into plaudit.products ${db(columns)} returning ${productColumns(db)}`
      );
      return c.json(toProduct(row), 201);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'put',
      path: '/organizations/{orgId}/products',
      operationId: 'products.upsert',
      tags: TAGS,
      summary: 'Sync the catalog',
      description:
        'Adds or updates up to 1,000 products (body up to 1 MiB), matched by `external_id`. A row updates only the fields it gives (`null` clears one); a row that changes nothing counts as `unchanged`, so the same call twice changes nothing the second time. Each row is validated on its own: refused rows are listed in `rejected` by index, the others land.',
      request: { params: OrgParams, body: jsonBody(BulkProductsInput) },
      responses: {
        200: json(
          BulkProductsResult,
          'How many products were added, changed and left alone, and which rows were refused',
        ),
        422: errorResponseSpec('The body is not `{"products":[…]}` with 1–1,000 items'),
      },
    }),
    async (c) => {
      const db = c.var.db;
      const rejected: { index: number; message: string }[] = [];
      const rows: Record<string, unknown>[] = [];
      c.req.valid('json').products.forEach((raw, index) => {
        const parsed = ProductInput.safeParse(raw);
        if (parsed.success) rows.push({ ...parsed.data, index });
        else rejected.push({ index, message: messageOf(fieldErrorsOfIssues(parsed.error.issues, 'product')) });
      });
      const counts = { created: 0, updated: 0, unchanged: 0 };
      if (rows.length) {
        const outcomes = await db<{ idx: number; outcome: keyof typeof counts | null; error: string | null }[]>`
          select idx, outcome, error from plaudit.upsert_products(${db.json(asJson(rows))})`;
        for (const o of outcomes) {
          if (o.outcome) counts[o.outcome] += 1;
          else rejected.push({ index: o.idx, message: o.error! });
        }
      }
      rejected.sort((a, b) => a.index - b.index);
      return c.json({ ...counts, rejected }, 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/products/{id}',
      operationId: 'products.get',
      tags: TAGS,
      summary: 'Get a product',
      request: { params: OrgItemParams },
      responses: {
        200: json(Product, 'The product'),
        404: errorResponseSpec('No product with this id in this organization'),
      },
    }),
    async (c) => {
      const db = c.var.db;
      const [product] = await selectProducts(db, db`id = ${c.req.valid('param').id}`);
      if (!product) throw productNotFound();
      return c.json(product, 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/products/{id}',
      operationId: 'products.update',
      tags: TAGS,
      summary: 'Change a product',
      description:
        'Fields left out stay as they are; `null` clears an optional one. Archive a product with `{"archived": true}`.',
      request: { params: OrgItemParams, body: jsonBody(ProductPatch) },
      responses: {
        200: json(Product, 'The changed product'),
        404: errorResponseSpec('No product with this id in this organization'),
        409: errorResponseSpec('Another product has this external_id'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.var.db;
      const changes = columnsOf(c.req.valid('json'));
      const [row] = Object.keys(changes).length
        ? await translateProductErrors(() =>
          db<ProductRow[]>`
            update plaudit.products set ${db(changes)} where id = ${id} returning ${productColumns(db)}`
        ).then((rows) => rows.map(toProduct))
        : await selectProducts(db, db`id = ${id}`);
      if (!row) throw productNotFound();
      return c.json(row, 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'delete',
      path: '/organizations/{orgId}/products/{id}',
      operationId: 'products.delete',
      tags: TAGS,
      summary: 'Delete a product',
      description:
        'Removes a product without reviews from the catalog. A product with reviews keeps them: archive it instead (409).',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Deleted' },
        404: errorResponseSpec('No product with this id in this organization'),
        409: errorResponseSpec('The product has reviews'),
      },
    }),
    async (c) => {
      const rows = await translateProductErrors(() =>
        c.var.db`delete from plaudit.products where id = ${c.req.valid('param').id} returning id`
      );
      if (rows.length === 0) throw productNotFound();
      return c.body(null, 204);
    },
  );
