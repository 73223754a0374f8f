// A product as the public functions give it, for the API's public routes and the product pages
// alike, so that both read it the same way. Every read runs as plaudit_public.
import { PRODUCT_JSONLD_REVIEWS, type ProductForJsonLd } from '../product-jsonld.ts';
import type { AttributeSummaryItem } from '../attributes.ts';
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

/** plaudit.public_product's answer: the product's public fields and its group's figures. */
export type PublicProductRow = ProductForJsonLd & {
  version: string;
  external_id: string;
  rating_distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
  /** The answers to scale and rating fields (plaudit.attribute_summary). */
  attributes: AttributeSummaryItem[];
  /** An open review bombing hold on the product's subject (review_holds.sql). */
  checking_recent_reviews: boolean;
};

/** The product of `slug` with this external id, or null (unknown, another's, or a switched-off profile). */
export async function loadPublicProduct(sql: Sql, slug: string, externalId: string): Promise<PublicProductRow | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ p: PublicProductRow | null }[]>`select plaudit.public_product(${slug}, ${externalId}) as p`,
  );
  return row.p;
}

/**
 * The version of a page that shows the product of `slug` with this external id beside the profile:
 * the profile's version, naming the product (plaudit.public_product_version).
 */
export async function publicProductPageVersion(sql: Sql, slug: string, externalId: string): Promise<string | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ v: string | null }[]>`select plaudit.public_product_version(${slug}, ${externalId}, true) as v`,
  );
  return row.v;
}

/** Which page of a product's public reviews, in which order, of which rating (null: any). */
export interface ProductReviewsQuery {
  page: number;
  limit: number;
  sort: string;
  rating: number | null;
  /** Only reviews with visible photos or videos (`has_media=true`). */
  media?: boolean;
  /** Only reviews written in this language (ISO 639-1). */
  language?: string | null;
  /** The reader's language (ISO 639-1): reviews written in it come first. */
  reader?: string | null;
}

/** What a product's JSON-LD says of its reviews, on the route and the page alike: the newest, whatever is shown. */
export const NEWEST_FOR_JSONLD: ProductReviewsQuery = {
  page: 1,
  limit: PRODUCT_JSONLD_REVIEWS,
  sort: 'newest',
  rating: null,
};

/** A page of the product's public reviews (over its group) in the pagination envelope, or null when not found. */
export async function loadPublicProductReviews<Item>(
  sql: Sql,
  slug: string,
  externalId: string,
  q: ProductReviewsQuery,
): Promise<{ data: Item[]; meta: { total: number } } | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) =>
      tx<{ body: string }[]>`
        select body from plaudit.public_product_reviews(
          ${slug}, ${externalId}, ${q.page}, ${q.limit}, ${q.sort}, ${q.rating}, ${q.media ?? false},
          ${q.language ?? null}, ${q.reader ?? null})`,
  );
  return row ? JSON.parse(row.body) : null;
}
