// The HTML a business pastes into its site to show the widget (docs/widget.md), in each of its
// modes: the business's reviews, a product's (its summary, bars, reviews and JSON-LD) and a
// product's stars line for category pages. Written once: the embed answer's `snippet` and the
// dashboard's widget screen both take them from here. Each container reserves the height the
// widget fills, so the page does not move when the reviews arrive, and holds a link for readers
// without scripts; the script line is the same in all, and a page needs it once.

/** The height the business widget takes in each layout. */
export const WIDGET_HEIGHT: Record<string, number> = { list: 480, grid: 480, carousel: 320 };
/** The height a product's widget is given: its summary, bars and a few reviews, scrolling inside. */
export const PRODUCT_WIDGET_HEIGHT = 560;
/** The stars line's height, which the widget keeps. */
export const STARS_HEIGHT = 24;

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const script = (scriptUrl: string) => `<script async src="${attr(scriptUrl)}"></script>`;

/** A product's public page: the profile page's address, then the product's id. */
export function productPageUrl(profileUrl: string, externalId: string): string {
  return `${profileUrl}/products/${encodeURIComponent(externalId)}`;
}

/** The business's widget: its latest reviews in the saved layout. */
export function embedSnippet(
  slug: string,
  name: string,
  profileUrl: string,
  scriptUrl: string,
  layout: string,
): string {
  const height = WIDGET_HEIGHT[layout] ?? WIDGET_HEIGHT.list;
  return `<div id="service-widget" data-slug="${attr(slug)}" style="display:block;height:${height}px">` +
    `<a href="${attr(profileUrl)}">Reviews of ${attr(name)}</a></div>\n` + script(scriptUrl);
}

/** The product of a shop's product page, by the business's own id of it. */
export interface SnippetProduct {
  external_id: string;
  name: string;
}

/** A product's widget, for its page in the shop: the product's (its group's) summary and reviews. */
export function productSnippet(slug: string, product: SnippetProduct, profileUrl: string, scriptUrl: string): string {
  return `<div data-plaudit-widget data-slug="${attr(slug)}" data-product="${attr(product.external_id)}" ` +
    `style="display:block;height:${PRODUCT_WIDGET_HEIGHT}px">` +
    `<a href="${attr(productPageUrl(profileUrl, product.external_id))}">Reviews of ${text(product.name)}</a></div>\n` +
    script(scriptUrl);
}

/** A product's stars line, for category and search pages (all of a page's are read in one request). */
export function starsSnippet(slug: string, product: SnippetProduct, profileUrl: string, scriptUrl: string): string {
  return `<span data-plaudit-widget data-slug="${attr(slug)}" data-product="${attr(product.external_id)}" ` +
    `data-mode="stars" style="display:block;height:${STARS_HEIGHT}px">` +
    `<a href="${attr(productPageUrl(profileUrl, product.external_id))}">Reviews of ${text(product.name)}</a></span>\n` +
    script(scriptUrl);
}

/** Whether the stars mode can read a product's id: its ratings request separates ids by commas. */
export const starsCanRead = (externalId: string) => !externalId.includes(',');
