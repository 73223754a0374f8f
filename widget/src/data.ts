// The widget's reads of the public API: JSON or nothing. A refusal or a network error answers
// null, so that the caller leaves the container's fallback as it is and nothing reaches the page.
import type { components } from '../../sdk/src/generated/openapi.ts';

export type PublicReview = components['schemas']['PublicReview'];
export type PublicProduct = components['schemas']['PublicProduct'];
export type ProductRating = components['schemas']['PublicProductRating'];

export async function getJson<T>(url: string): Promise<T | null> {
  try {
    const res = await fetch(url, { credentials: 'omit' });
    return res.ok ? ((await res.json()) as T) : null;
  } catch {
    return null;
  }
}

/** For promises whose failure leaves the container as it was. */
export const ignore = () => {};

/** `/api/v1/public/products/<slug>/<external id>` and what follows it. */
export const productPath = (base: string, slug: string, id: string) =>
  `${base}/api/v1/public/products/${encodeURIComponent(slug)}/${encodeURIComponent(id)}`;
