import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { QueryOf } from '../types.ts';

const FRAGMENT = '/api/v1/public/fragments/{slug}.html';
const PRODUCT_FRAGMENT = '/api/v1/public/fragments/{slug}/products/{externalId}.html';

/** What a fragment shows: a product's reviews (`product`, its external id) or the business's, and how. */
export type FragmentOptions = QueryOf<typeof FRAGMENT> & { product?: string };

/**
 * The widget's first view as HTML, for a shop's server to include in its own page (no key sent):
 * the summary with its stars, the first reviews, styles scoped to `.plaudit-fragment`, and a
 * product's JSON-LD. With the widget's script on the page, the widget adopts it without reading
 * the first page again. Review text in it is escaped; include it as is, unescaped.
 */
export class Fragments extends Resource {
  /** The fragment of the business `slug`, or of its product `options.product`: the HTML string. */
  get(slug: string, options: FragmentOptions = {}, opts?: RequestOptions): ApiPromise<string> {
    const { product, ...query } = options;
    const asHtml = { ...opts, headers: { accept: 'text/html', ...opts?.headers } };
    const init = { auth: false, query };
    return (product === undefined
      ? this.call('get', FRAGMENT, { slug }, init, asHtml)
      : this.call('get', PRODUCT_FRAGMENT, { slug, externalId: product }, init, asHtml)) as ApiPromise<never>;
  }
}
