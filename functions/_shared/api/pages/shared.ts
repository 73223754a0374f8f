// What the hosted pages share: the headers of their answers (the pages a token opens are private,
// never cached nor indexed; the profile pages are public), the one-paragraph message page, the
// shape of a link's token, and reading a posted HTML form.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { type Absent, conditionalPublicRead } from '../middleware/public-access/index.ts';
import { markup, page, type SafeHtml } from './html.ts';
import { PHOTO_VIEWER_CSP } from './photo-viewer.ts';
import { runAsPublic } from '../../core/db/roles.ts';

/** Shared caches keep a public page five minutes and serve it stale while they revalidate it by ETag. */
export const PAGE_CACHE_CONTROL = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';

/** The token of a link in an e-mail (review request, unsubscribe, verification, invitation). */
export const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** A page of the forms and e-mailed links: no cache, no index, no script but one with `scriptNonce`. */
export function privatePage(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  body: SafeHtml,
  { privateLink = false, style, scriptNonce }: { privateLink?: boolean; style?: SafeHtml; scriptNonce?: string } = {},
) {
  // A page with a script (the thank-you page's photo upload) runs only the one its nonce names,
  // which may send to this site and preview the files chosen (blob:).
  c.header(
    'Content-Security-Policy',
    scriptNonce
      ? `default-src 'none'; script-src 'nonce-${scriptNonce}'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' https: blob:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`
      : "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  // Links carrying a token must not leak it to other sites through the Referer header.
  c.header('Referrer-Policy', privateLink ? 'no-referrer' : 'same-origin');
  return c.html(page({ title, body, style }), status);
}

/** A private page that only says something: a heading and a paragraph, under the business's name. */
export function message(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  text: string,
  orgName?: string | null,
  privateLink = true,
) {
  return privatePage(
    c,
    status,
    title,
    markup`${orgName ? markup`<p class="org">${orgName}</p>` : ''}<h1>${title}</h1><p>${text}</p>`,
    { privateLink },
  );
}

/** The page of a link whose token is malformed or unknown. */
export const invalidLink = (c: Context<AppEnv>) =>
  message(c, 404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.');

/** The fields of a posted HTML form (urlencoded or multipart), text values only. */
export async function formValues(c: Context<AppEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: false });
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') values[k] = v;
  return values;
}

/**
 * A page anyone may see, index and link to (the profile pages): no script but the photo viewer (by its hash); forms only
 * to this site (a review's vote).
 */
export function publicPage(c: Context<AppEnv>, status: ContentfulStatusCode, html: string) {
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${PHOTO_VIEWER_CSP}; style-src 'unsafe-inline'; img-src https: http: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  return c.html(html, status);
}

/** A public page that does not exist (404, cached a minute) or was asked for wrongly (400). */
export function publicNotFound(c: Context<AppEnv>, status: 400 | 404, title: string, text: string) {
  c.header('Cache-Control', status === 404 ? 'public, max-age=60' : 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  return publicPage(c, status, page({ title, body: markup`<h1>${title}</h1><p>${text}</p>` }));
}

/** What a public page that is not there says: a business's, or a product's. */
export type Missing = { title: string; text: string };

export const NO_SUCH_BUSINESS: Missing = {
  title: 'No such business',
  text:
    'There is no public page at this address. The link may be mistyped, or the business no longer shows its reviews here.',
};

/**
 * A public page read with ETag revalidation on the organization's public version: a 304 when the
 * copy the client holds is current, the `missing` 404 page when `load` finds nothing, else what
 * `render` makes of the data (the page's HTML, or an answer of its own such as a 404 past the last
 * page), each with the pages' Cache-Control.
 */
export async function cachedPublicPage<T extends { version: string }>(
  c: Context<AppEnv>,
  { variant, version, load, missing, render }: {
    variant: string;
    version: () => Promise<string | null>;
    load: () => Promise<T | Absent | null>;
    missing: Missing;
    render: (data: T) => string | Response;
  },
): Promise<Response> {
  const out = await conditionalPublicRead<T>(c, variant, version, load);
  if ('notModified' in out) {
    // The 304 is made with the API's caching headers: a page's is its own.
    out.notModified.headers.set('Cache-Control', PAGE_CACHE_CONTROL);
    return out.notModified;
  }
  if (!out.data) return publicNotFound(c, 404, missing.title, missing.text);
  const html = render(out.data);
  if (typeof html !== 'string') return html;
  c.header('Cache-Control', PAGE_CACHE_CONTROL);
  return publicPage(c, 200, html);
}

/**
 * Whether a review written now on this form, of one of these subjects (products by external id,
 * null for the business), would be held for a check (a burst's hold): its fine print says so.
 */
export async function formUnderCheck(c: Context<AppEnv>, formId: string, externalIds: (string | null)[]) {
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<{ held: boolean }[]>`select plaudit.form_subjects_under_check(${formId}, ${externalIds}) as held`,
    { onPrimary: true },
  );
  return row.held;
}
