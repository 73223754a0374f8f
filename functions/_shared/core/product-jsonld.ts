// A product's schema.org structured data (JSON-LD), for the public `jsonld` route and the product
// pages alike, so that both say the same. Google reads `Product` with `aggregateRating` and
// `review` for product review snippets. A product of a group of several (variants of one thing,
// whose reviews are shared) is a `ProductGroup`, as Google documents product variants: the group's
// `productGroupID`, its aggregate rating and reviews on the group, and each variant a `Product` of
// its own in `hasVariant` (its name, address, picture, sku, gtin, mpn), with no rating of its own.
// The GTIN goes in `gtin`, which schema.org and Google accept for every length (8, 12, 13 or 14
// digits). Keys whose value is null are left out; names and texts are data, never markup (the page
// embeds it with its script escaping). Each rating field of the forms (an aspect, such as Quality:
// docs/products.md) is a Rating with `reviewAspect`, which schema.org allows on Rating and so on
// AggregateRating: after the overall one, the product's `aggregateRating` lists each aspect's, and
// a review's `reviewRating` each aspect it rated; without aspects both stay one object.
import type { AttributeSummaryItem } from './attributes.ts';
import { isErasedReview } from './erasure.ts';
import { safeLink } from './html.ts';
import { imageSource } from './web-links.ts';

/** What the JSON-LD says of the product: its fields and its public figures (over its group). */
export interface ProductForJsonLd {
  name: string;
  url: string | null;
  image_url: string | null;
  sku: string | null;
  gtin: string | null;
  mpn: string | null;
  brand: string | null;
  average_rating: number | null;
  review_count: number;
  /** The product's group (the business's key), or null. */
  group?: string | null;
  /** The group's products, the product among them; null without a group. */
  variants?: VariantForJsonLd[] | null;
  /** The answers' summaries, whose rating fields are the aspects. */
  attributes?: readonly AttributeSummaryItem[];
}

/** What the JSON-LD says of each of a group's products. */
export interface VariantForJsonLd {
  external_id: string;
  name: string;
  url: string | null;
  image_url: string | null;
  sku: string | null;
  gtin: string | null;
  mpn: string | null;
}

/** What the JSON-LD says of each review: the public review item's fields. */
export interface ReviewForJsonLd {
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  created_at: string;
  /** The answers to scale and rating fields, by key. */
  attributes?: Record<string, string | number>;
}

/** At most this many reviews, newest first: enough for snippets, small for a page's head. */
export const PRODUCT_JSONLD_REVIEWS = 10;

const RATING_SCALE = { bestRating: 5, worstRating: 1 } as const;

/** An object without the keys whose value is null or undefined. */
function withoutNulls(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== null && v !== undefined));
}

/** The overall rating alone, or first before its aspects'. */
function withAspects(overall: object, aspects: object[]): object {
  return aspects.length ? [overall, ...aspects] : overall;
}

/** The schema.org Product of a product's own identifiers: its name, address, picture, sku, gtin and mpn. */
function productOf(p: Omit<VariantForJsonLd, 'external_id'>): Record<string, unknown> {
  return {
    '@type': 'Product',
    name: p.name,
    url: safeLink(p.url) ? p.url : null,
    image: imageSource(p.image_url) || null,
    sku: p.sku,
    gtin: p.gtin,
    mpn: p.mpn,
  };
}

/**
 * The schema.org Product of a product (or the ProductGroup of a group of several, its variants in
 * `hasVariant`), its aggregate rating (none without reviews) and its newest reviews but the erased
 * ones (core/erasure.ts), whose stars the aggregate rating still counts.
 */
export function productJsonLd(p: ProductForJsonLd, reviews: readonly ReviewForJsonLd[]): Record<string, unknown> {
  const count = Number(p.review_count);
  const shown = reviews.filter((r) => !isErasedReview(r));
  const aspects = (p.attributes ?? []).filter((a) => a.type === 'rating' && a.average !== undefined);
  const overall = {
    '@type': 'AggregateRating',
    ratingValue: Number(p.average_rating),
    reviewCount: count,
    ...RATING_SCALE,
  };
  const ratings = {
    brand: p.brand === null ? null : { '@type': 'Brand', name: p.brand },
    aggregateRating: count > 0
      ? withAspects(
        overall,
        aspects.map((a) => ({
          '@type': 'AggregateRating',
          reviewAspect: a.label,
          ratingValue: Number(a.average),
          ratingCount: a.count,
          ...RATING_SCALE,
        })),
      )
      : null,
    review: count > 0 && shown.length
      ? shown.slice(0, PRODUCT_JSONLD_REVIEWS).map((r) =>
        withoutNulls({
          '@type': 'Review',
          author: { '@type': 'Person', name: r.reviewer_name },
          datePublished: r.created_at.slice(0, 10),
          name: r.title,
          reviewBody: r.content,
          reviewRating: withAspects(
            { '@type': 'Rating', ratingValue: r.rating, ...RATING_SCALE },
            aspects.filter((a) => typeof r.attributes?.[a.key] === 'number').map((a) => ({
              '@type': 'Rating',
              reviewAspect: a.label,
              ratingValue: r.attributes![a.key],
              ...RATING_SCALE,
            })),
          ),
        })
      )
      : null,
  };
  if (p.group && p.variants && p.variants.length > 1) {
    return withoutNulls({
      '@context': 'https://schema.org',
      '@type': 'ProductGroup',
      name: p.name,
      productGroupID: p.group,
      image: imageSource(p.image_url) || null,
      ...ratings,
      hasVariant: p.variants.map((v) => withoutNulls(productOf(v))),
    });
  }
  return withoutNulls({ '@context': 'https://schema.org', ...productOf(p), ...ratings });
}
