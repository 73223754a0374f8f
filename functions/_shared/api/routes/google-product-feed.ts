// The Google Product Ratings feed: every published review of a product, in Google's Product
// Reviews Feed schema 2.4, for the business to give Google Merchant Center (docs/products.md).
// PostgreSQL writes the <review> elements a page at a time (plaudit.google_product_feed_page); this
// module streams them between the feed's head and tail, reading the next page only when the client
// has taken the last one, each page in a public statement of its own: memory stays flat whatever
// the feed's size, and a slow reader holds no database connection.
import { z } from '@hono/zod-openapi';
import type { PendingQuery, Row } from 'postgres';
import type { Sql, Tx } from '../../core/db/client.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { ApiError } from '../http/errors.ts';
import { errorResponseSpec } from '../http/schemas.ts';
import { ifNoneMatchHits, PUBLIC_CACHE_CONTROL, publicCors, publicEtag } from '../middleware/public-access/index.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { publicRoute, router } from './define.ts';
import { SlugParams } from './public/shared.ts';
import { tagPublicAnswer } from '../http/cache-keys.ts';

/** The 404 of the feed: an unknown slug, a profile switched off, or a feed not switched on. */
export const FEED_NOT_FOUND = 'Feed not found';

/** Reviews per page: about a megabyte of XML, one statement each. */
export const FEED_PAGE_SIZE = 1000;

export type FeedState =
  | { published: false; org_id: string }
  | { published: true; org_id: string; name: string; website: string | null; version: string; last_modified: string };

/** What XML 1.0 cannot hold at all (C0 controls but tab, newline, carriage return; U+FFFE, U+FFFF). */
// deno-lint-ignore no-control-regex -- finding the control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text as XML character data, as plaudit.xml_text writes it. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/[&<>]/g, (c) => XML_ESCAPES[c]);
}

/**
 * The feed's head, up to its first review: the schema's version, Plaudit as the aggregator and
 * the business as the publisher. The schema has no element for the publisher's address: its public
 * profile page is named in a comment (a comment may not hold `--`, which a URL never needs).
 */
export function feedHead(name: string, profileUrl: string, hasReviews: boolean): string {
  const publisher = xmlText(name).trim() ? xmlText(name) : 'Anonymous business';
  const comment = profileUrl.replace(/-(?=-|$)/g, '%2D');
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<feed xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ' xsi:noNamespaceSchemaLocation="http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd">\n' +
    `  <!-- The product reviews of ${comment} -->\n` +
    '  <version>2.4</version>\n' +
    '  <aggregator><name>Plaudit</name></aggregator>\n' +
    `  <publisher><name>${publisher}</name></publisher>\n` +
    (hasReviews ? '  <reviews>' : '');
}

/** The feed's tail, after its last review (with none, the schema wants no <reviews> at all). */
export const feedTail = (hasReviews: boolean) => (hasReviews ? '\n  </reviews>\n</feed>\n' : '</feed>\n');

/** A review feed's state (plaudit.review_feed_state): published or not, and what its answer's headers say. */
export async function feedState(sql: Sql, slug: string, feed: 'google' | 'meta'): Promise<FeedState | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ s: FeedState | null }[]>`select plaudit.review_feed_state(${slug}, ${feed}) as s`,
  );
  return row.s;
}

/** Where the next page starts: after this product, creation time and id. */
export type Cursor = { product: string; createdAt: string; id: string } | null;

/**
 * One page of a feed as the database's UTF-8 bytes (never decoded here), and the next cursor, from
 * a page function's row: (text, reviews, last_product, last_created_at, last_id).
 */
export async function feedPageOf(sql: Sql, query: (tx: Tx) => PendingQuery<Row[]>) {
  const rows = await runAsPublic(sql, (tx) => query(tx).raw() as never);
  const row = (rows as unknown as Uint8Array<ArrayBuffer>[][])[0];
  if (!row) return { bytes: null, reviews: 0, next: null };
  const text = (i: number) => new TextDecoder().decode(row[i]);
  return {
    bytes: row[0],
    reviews: Number(text(1)),
    next: { product: text(2), createdAt: text(3), id: text(4) } satisfies Cursor,
  };
}

/**
 * A feed as a stream of UTF-8 bytes: its head, its pages, its tail. highWaterMark 0: nothing is
 * read before the client asks for it (a HEAD request reads no page at all).
 */
export function pagedFeedStream(
  { page, head, tail, pageSize }: {
    page: (after: Cursor, limit: number) => ReturnType<typeof feedPageOf>;
    head: (hasReviews: boolean) => string;
    tail: (hasReviews: boolean) => string;
    pageSize: number;
  },
): ReadableStream<BufferSource> {
  const encoder = new TextEncoder();
  let cursor: Cursor = null;
  let started = false;
  let hasReviews = false;
  // Every pull enqueues something (a pull that enqueues nothing is not called again): the head
  // with the first page, each page, and the tail with the last (short or empty) page.
  return new ReadableStream<BufferSource>({
    async pull(controller) {
      try {
        const next = await page(cursor, pageSize);
        cursor = next.next;
        if (!started) {
          started = true;
          hasReviews = next.reviews > 0;
          controller.enqueue(encoder.encode(head(hasReviews)));
        }
        if (next.bytes) controller.enqueue(next.bytes);
        if (next.reviews < pageSize) {
          controller.enqueue(encoder.encode(tail(hasReviews)));
          controller.close();
        }
      } catch (err) {
        // The answer is already under way: the client sees it cut short, never a document that
        // looks whole without all its reviews.
        controller.error(err);
      }
    },
  }, { highWaterMark: 0 });
}

/** The whole Google feed as a stream of UTF-8 bytes. */
export function feedStream(
  sql: Sql,
  { slug, name, profileUrl, productPage, pageSize = FEED_PAGE_SIZE }: {
    slug: string;
    name: string;
    profileUrl: string;
    productPage: string;
    pageSize?: number;
  },
): ReadableStream<BufferSource> {
  return pagedFeedStream({
    pageSize,
    head: (hasReviews) => feedHead(name, profileUrl, hasReviews),
    tail: feedTail,
    page: (after, limit) =>
      feedPageOf(sql, (tx) =>
        tx`
        select xml, reviews, last_product, last_created_at, last_id
          from plaudit.google_product_feed_page(${slug}, ${productPage}, ${after?.product ?? null},
                                                ${after?.createdAt ?? null}, ${after?.id ?? null}, ${limit})`),
  });
}

/** Whether the client takes gzip (a q of 0 refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * A published feed's answer: ETag, Last-Modified and Cache-Control; 304 to a current
 * If-None-Match (or, without one, an If-Modified-Since not older than Last-Modified) before any
 * review is read; else the stream, gzipped when the client takes it.
 */
export function feedAnswer(
  c: Context<AppEnv>,
  state: Extract<FeedState, { published: true }>,
  { etagOf, contentType, body }: { etagOf: string; contentType: string; body: () => ReadableStream<BufferSource> },
) {
  const lastModified = new Date(state.last_modified);
  const etag = publicEtag(state.version, etagOf);
  c.header('ETag', etag);
  c.header('Last-Modified', lastModified.toUTCString());
  c.header('Cache-Control', PUBLIC_CACHE_CONTROL);
  c.header('Vary', 'Accept-Encoding');
  const ifNoneMatch = c.req.header('if-none-match');
  const ifModifiedSince = Date.parse(c.req.header('if-modified-since') ?? '');
  if (ifNoneMatch ? ifNoneMatchHits(ifNoneMatch, etag) : ifModifiedSince >= lastModified.getTime()) {
    return c.body(null, 304);
  }
  c.header('Content-Type', contentType);
  if (!acceptsGzip(c.req.header('accept-encoding'))) return c.body(body(), 200);
  c.header('Content-Encoding', 'gzip');
  return c.body(body().pipeThrough(new CompressionStream('gzip')), 200);
}

export const feedHeaders = {
  ETag: { description: 'Changes when anything in the feed may have changed', schema: { type: 'string' as const } },
  'Last-Modified': { description: 'When anything in the feed last changed', schema: { type: 'string' as const } },
  'Cache-Control': {
    description: '`public, max-age=30, stale-while-revalidate=300`',
    schema: { type: 'string' as const },
  },
};

export const googleProductFeed = router();
googleProductFeed.use('/public/feeds/*', publicCors({ methods: ['GET', 'HEAD'] }));
googleProductFeed.openapi(
  publicRoute({
    method: 'get',
    path: '/public/feeds/{slug}/google-product-reviews.xml',
    operationId: 'public.googleProductFeed',
    tags: ['Public data'],
    summary: 'Get the Google Product Ratings feed',
    description:
      "Every published review of the business's products (not hidden; verified or unverified; whatever its rating; reviews of the business are not in it) in Google's Product Reviews Feed schema, version 2.4, for Google Merchant Center. 404 unless the public profile is on and its `google_product_feed` setting is true. Public: no API key. Streamed; gzip when the request accepts it. Answers carry `ETag`, `Last-Modified` and `Cache-Control`; a request with a current `If-None-Match` (or, without one, an `If-Modified-Since` not older than `Last-Modified`) gets 304 without any review being read.",
    request: { params: SlugParams },
    responses: {
      200: {
        description: 'The feed',
        headers: feedHeaders,
        content: { 'application/xml': { schema: z.string().openapi({ description: 'The XML feed' }) } },
      },
      304: { description: 'Not modified: the feed is as the request has it', headers: feedHeaders },
      404: errorResponseSpec('Unknown slug, the public profile is off, or the feed is not switched on'),
    },
  }),
  async (c) => {
    const { slug } = c.req.valid('param');
    const state = await feedState(c.var.sql, slug, 'google');
    if (state) tagPublicAnswer(c, { orgId: state.org_id });
    if (!state?.published) throw new ApiError(404, FEED_NOT_FOUND);
    const profileUrl = `${c.var.config.publicUrl}/p/${encodeURIComponent(slug)}`;
    return feedAnswer(c, state, {
      etagOf: `google-product-feed:${slug}`,
      contentType: 'application/xml; charset=utf-8',
      body: () => feedStream(c.var.sql, { slug, name: state.name, profileUrl, productPage: `${profileUrl}/products/` }),
    });
  },
);
