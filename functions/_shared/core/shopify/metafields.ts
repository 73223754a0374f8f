// Shopify's rating metafields of a product, set through the Admin GraphQL API: the shop's address
// (only ever `<name>.myshopify.com`, or the operator's SHOPIFY_API_URL), the `metafieldsSet`
// request for a batch of products (and `metafieldsDelete` of the rating of a product left without
// published reviews), and what Shopify's answer means for the write-back.

export const SHOPIFY_API_VERSION = '2025-10';

/** A Shopify shop's own domain: the only host the write-back ever calls (no SSRF through settings). */
export const SHOPIFY_SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,99}\.myshopify\.com$/;

/** `metafieldsSet` takes at most 25 metafields a call; a product takes two. */
export const METAFIELDS_PER_CALL = 25;
export const PRODUCTS_PER_CALL = Math.floor(METAFIELDS_PER_CALL / 2);

export class UnsafeShopError extends Error {}

/** The GraphQL endpoint of a shop; `apiUrl` (SHOPIFY_API_URL) replaces `https://<shop_domain>`. */
export function adminGraphqlUrl(shopDomain: string | null, apiUrl: string | null): string {
  if (!shopDomain || !SHOPIFY_SHOP_DOMAIN.test(shopDomain)) {
    throw new UnsafeShopError('the shop domain is not <name>.myshopify.com');
  }
  const base = apiUrl ? apiUrl.replace(/\/+$/, '') : `https://${shopDomain}`;
  return `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
}

/** A product's published figures, as the write-back sends them. */
export interface ProductRating {
  externalId: string;
  count: number;
  sum: number;
}

/** The average on Shopify's rating scale, one decimal as a string ('4.5'); null without reviews. */
export function ratingValue(count: number, sum: number): string | null {
  if (count <= 0) return null;
  return (Math.round((sum * 10) / count) / 10).toFixed(1);
}

const ownerId = (externalId: string) => `gid://shopify/Product/${externalId}`;

const SET = `metafieldsSet(metafields: $metafields) {
    metafields { ownerId namespace key }
    userErrors { field message code }
  }`;
const DELETE = `metafieldsDelete(metafields: $deletions) {
    deletedMetafields { ownerId namespace key }
    userErrors { field message }
  }`;
export const SET_RATINGS = `mutation PlauditSetRatings($metafields: [MetafieldsSetInput!]!) {
  ${SET}
}`;
export const SET_RATINGS_AND_DELETE =
  `mutation PlauditSetRatings($metafields: [MetafieldsSetInput!]!, $deletions: [MetafieldIdentifierInput!]!) {
  ${SET}
  ${DELETE}
}`;

/**
 * The request for up to PRODUCTS_PER_CALL products: each gets `reviews.rating_count`, and
 * `reviews.rating` when it has published reviews; one without loses its `reviews.rating`.
 */
export function ratingsRequest(products: ProductRating[]): { query: string; variables: Record<string, unknown> } {
  if (products.length > PRODUCTS_PER_CALL) throw new Error(`at most ${PRODUCTS_PER_CALL} products a call`);
  const metafields: Record<string, string>[] = [];
  const deletions: Record<string, string>[] = [];
  for (const p of products) {
    const value = ratingValue(p.count, p.sum);
    if (value === null) {
      deletions.push({ ownerId: ownerId(p.externalId), namespace: 'reviews', key: 'rating' });
    } else {
      metafields.push({
        ownerId: ownerId(p.externalId),
        namespace: 'reviews',
        key: 'rating',
        type: 'rating',
        value: JSON.stringify({ value, scale_min: '1.0', scale_max: '5.0' }),
      });
    }
    metafields.push({
      ownerId: ownerId(p.externalId),
      namespace: 'reviews',
      key: 'rating_count',
      type: 'number_integer',
      value: String(Math.max(0, p.count)),
    });
  }
  return deletions.length
    ? { query: SET_RATINGS_AND_DELETE, variables: { metafields, deletions } }
    : { query: SET_RATINGS, variables: { metafields } };
}

/** What an answer means: done, worth another attempt later, or refused for good (a retry would not help). */
export type WriteBackOutcome =
  | { outcome: 'sent' }
  | { outcome: 'retry'; error: string; retryAfterMs: number | null }
  | { outcome: 'failed'; error: string };

interface GraphqlAnswer {
  errors?: { message?: string; extensions?: { code?: string } }[];
  data?: Record<string, { userErrors?: { field?: string[] | null; message?: string }[] } | null>;
}

/**
 * Reads a 2xx answer: top-level `errors` (throttling, access denied, a query Shopify refused)
 * are tried again on the schedule; `userErrors` (a product gone, a definition of another type)
 * fail the write-back for good, with Shopify's words.
 */
export function readAnswer(body: string): WriteBackOutcome {
  let answer: GraphqlAnswer;
  try {
    answer = JSON.parse(body);
  } catch {
    return { outcome: 'retry', error: 'Shopify answered something other than JSON', retryAfterMs: null };
  }
  if (answer.errors?.length) {
    const first = answer.errors[0];
    const code = first.extensions?.code ? `${first.extensions.code}: ` : '';
    return { outcome: 'retry', error: `${code}${String(first.message ?? 'error').slice(0, 300)}`, retryAfterMs: null };
  }
  if (!answer.data?.metafieldsSet) {
    return { outcome: 'retry', error: 'Shopify answered no metafieldsSet result', retryAfterMs: null };
  }
  const userErrors = Object.values(answer.data).flatMap((r) => r?.userErrors ?? []);
  if (userErrors.length) {
    const words = userErrors.slice(0, 5).map((e) => `${(e.field ?? []).join('.')}: ${e.message ?? ''}`.trim());
    return { outcome: 'failed', error: `Shopify refused: ${words.join('; ')}`.slice(0, 1000) };
  }
  return { outcome: 'sent' };
}
