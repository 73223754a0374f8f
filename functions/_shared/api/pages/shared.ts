// What the hosted pages share: the headers of their answers (the pages a token opens are private,
// never cached nor indexed; the profile pages are public), the one-paragraph message page, the
// shape of a link's token, and reading a posted HTML form.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { markup, page, type SafeHtml } from './html.ts';

/** The token of a link in an e-mail (review request, unsubscribe, verification, invitation). */
export const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** A page of the forms and e-mailed links: no cache, no index, no script. */
export function privatePage(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  body: SafeHtml,
  { privateLink = false, style }: { privateLink?: boolean; style?: SafeHtml } = {},
) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
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

/** A page anyone may see, index and link to (the profile pages): no script, no form. */
export function publicPage(c: Context<AppEnv>, status: ContentfulStatusCode, html: string) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
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
