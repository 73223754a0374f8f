// The product catalog's shapes: what a client sends, what the API answers, and how a stored row
// becomes a Product.
import { z } from '@hono/zod-openapi';
import type postgres from 'postgres';
import type { Tx } from '../../../core/db/client.ts';
import { apiErrorFromDb } from '../../http/db-errors.ts';
import { ApiError } from '../../http/errors.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { fieldsGiven } from '../../http/patch.ts';
import { iso, Timestamp } from '../../http/schemas.ts';
import { isWebLink, WEB_LINK_MAX, WEB_LINK_RULE } from '../../../core/web-links.ts';

const GTIN_RULE = 'must be 8, 12, 13 or 14 digits with a valid check digit';

const HttpUrl = z.string().trim().max(WEB_LINK_MAX).refine(isWebLink, WEB_LINK_RULE);
const Identifier = (description: string) =>
  z.string().trim().min(1).max(200).nullable().optional().openapi({ description });

const productFields = {
  external_id: z.string().trim().min(1).max(200).openapi({
    description:
      'Your own id of the product (1–200 characters, unique in the organization): the bulk sync matches by it.',
    example: 'MUG-001',
  }),
  name: z.string().trim().min(1).max(500).openapi({ example: 'Stoneware mug, 350 ml' }),
  url: HttpUrl.nullable().optional().openapi({ description: "The product's page in your shop." }),
  image_url: HttpUrl.nullable().optional().openapi({
    description: "The product's picture (http or https; pages show it over https, an http address upgraded).",
  }),
  sku: Identifier('Stock keeping unit.'),
  gtin: z.string().regex(/^(\d{8}|\d{12,14})$/, GTIN_RULE).nullable().optional().openapi({
    description: 'EAN-8, UPC-A (12), EAN-13 or GTIN-14; the check digit is verified.',
    example: '4006381333931',
  }),
  mpn: Identifier("Manufacturer's part number."),
  brand: Identifier('The brand.'),
  group: Identifier(
    'Products of one group (variants of a size or colour) will share their reviews on public displays.',
  ),
  archived: z.boolean().optional().openapi({
    description: 'An archived product stays with its reviews but takes no new ones. New products are not archived.',
  }),
};

export const ProductInput = z.object(productFields).openapi('ProductInput', {
  example: {
    external_id: 'MUG-001',
    name: 'Stoneware mug, 350 ml',
    url: 'https://shop.example.com/mugs/stoneware',
    gtin: '4006381333931',
    brand: 'Acme',
    group: 'stoneware-mug',
  },
});
export type ProductInput = z.infer<typeof ProductInput>;

export const ProductPatch = z.object({
  ...productFields,
  external_id: productFields.external_id.optional(),
  name: productFields.name.optional(),
}).openapi('ProductPatch', { example: { archived: true } });
export type ProductPatch = z.infer<typeof ProductPatch>;

export const BulkProductsInput = z.object({
  // Each row is validated on its own (a bad row is listed in `rejected`, not a 422 for the call);
  // the document shows the row's shape.
  products: z.array(z.unknown().openapi({ $ref: '#/components/schemas/ProductInput' } as never)).min(1).max(1000)
    .openapi({ description: '1 to 1,000 products; each is validated on its own.' }),
}).openapi('BulkProductsInput', {
  example: {
    products: [
      { external_id: 'MUG-001', name: 'Stoneware mug, 350 ml', gtin: '4006381333931', group: 'stoneware-mug' },
      { external_id: 'MUG-002', name: 'Stoneware mug, 500 ml', group: 'stoneware-mug' },
    ],
  },
});

export const BulkProductsResult = z.object({
  created: z.number().int().openapi({ description: 'Products added.' }),
  updated: z.number().int().openapi({ description: 'Products whose fields changed.' }),
  unchanged: z.number().int().openapi({ description: 'Products the row left as they were.' }),
  rejected: z.array(z.object({ index: z.number().int(), message: z.string() })).openapi({
    description: 'Rows refused, by their index in `products`, with the field and what is wrong.',
  }),
}).openapi('BulkProductsResult');

export const Product = z.object({
  id: z.string().uuid(),
  external_id: z.string(),
  name: z.string(),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
  sku: z.string().nullable(),
  gtin: z.string().nullable(),
  mpn: z.string().nullable(),
  brand: z.string().nullable(),
  group: z.string().nullable(),
  archived: z.boolean(),
  review_count: z.number().int().openapi({ description: 'Published reviews of this product.' }),
  average_rating: z.number().nullable().openapi({
    description: 'Average rating of its published reviews, rounded to 2 decimals; `null` with none.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).openapi('Product');

export const ProductListQuery = PaginationQuery.extend({
  q: z.string().trim().min(1).max(200).optional().openapi({ description: 'Products whose name contains this text.' }),
  external_id: z.string().trim().min(1).max(200).optional().openapi({
    description: 'The product with this id of yours.',
  }),
  group: z.string().trim().min(1).max(200).optional().openapi({ description: 'Products of this group.' }),
  archived: z.enum(['true', 'false']).optional().openapi({
    description: '`false`: only products on sale; `true`: only archived ones. Without it, both.',
  }),
});

export type ProductRow = Omit<z.infer<typeof Product>, 'created_at' | 'updated_at'> & {
  created_at: Date;
  updated_at: Date;
};

/**
 * What a Product is read from, its counts from its counters (plaudit.product_review_statistics,
 * kept by the reviews' triggers: published reviews, not hidden, verified or unverified), never
 * from counting. Written against the table's own name, so that it serves a SELECT and the
 * RETURNING of an INSERT or UPDATE alike.
 */
export function productColumns(db: Tx) {
  const counters = db`from plaudit.product_review_statistics s where s.product_id = products.id`;
  return db`id, external_id, name, url, image_url, sku, gtin, mpn, brand, group_key as "group", archived,
            coalesce((select s.public_count::integer ${counters}), 0) as review_count,
            (select round(s.rating_sum::numeric / nullif(s.public_count, 0), 2)::float8 ${counters}) as average_rating,
            created_at, updated_at`;
}

export function toProduct(r: ProductRow): z.infer<typeof Product> {
  return { ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}

export async function selectProducts(db: Tx, where: postgres.Fragment) {
  return (await db<ProductRow[]>`select ${productColumns(db)} from plaudit.products where ${where}`).map(toProduct);
}

/** The stored columns a body's fields go to (`group` is `group_key`: "group" is a keyword of SQL). */
export function columnsOf(fields: ProductPatch): Record<string, unknown> {
  const columns = fieldsGiven(fields, [
    'external_id',
    'name',
    'url',
    'image_url',
    'sku',
    'gtin',
    'mpn',
    'brand',
    'archived',
  ]);
  if (fields.group !== undefined) columns.group_key = fields.group;
  return columns;
}

export const productNotFound = () => new ApiError(404, 'Product not found');

/**
 * Runs a write of one product and says its refusals in the contract's words: a taken external_id
 * is a 409, and so is deleting a product with reviews; a GTIN whose check digit the database
 * refuses names the field and the rule.
 */
export async function translateProductErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const e = err as { code?: string; constraint_name?: string };
    if (e.code === '23505' && e.constraint_name === 'products_external_id_key') {
      throw new ApiError(409, 'external_id: a product with this external_id exists already');
    }
    // Reviews name the product (no cascade): it stays, archived, with them.
    if (e.code === '23503' && e.constraint_name === 'reviews_product_id_fkey') {
      throw new ApiError(409, 'The product has reviews: archive it with {"archived":true} instead');
    }
    if (e.code === '23514' && e.constraint_name === 'products_gtin_check') {
      throw new ApiError(422, `gtin: ${GTIN_RULE}`, [{ field: 'gtin', code: 'invalid', message: GTIN_RULE }]);
    }
    throw apiErrorFromDb(err) ?? err;
  }
}
