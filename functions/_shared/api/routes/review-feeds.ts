// Meta's product review feed (CSV) and the review feeds' report. The feed is streamed a page at a
// time as the Google feed is (google-product-feed.ts); PostgreSQL writes its rows
// (supabase/schemas/meta_review_feed.sql). Both are cached and purged as every public answer.
import { z } from '@hono/zod-openapi';
import { runAsPublic } from '../../core/db/roles.ts';
import { tagPublicAnswer } from '../http/cache-keys.ts';
import { ApiError } from '../http/errors.ts';
import { errorResponseSpec, json } from '../http/schemas.ts';
import { conditionalPublicRead } from '../middleware/public-access/index.ts';
import { publicRoute, router } from './define.ts';
import {
  FEED_NOT_FOUND,
  FEED_PAGE_SIZE,
  feedAnswer,
  feedHeaders,
  feedPageOf,
  feedState,
  pagedFeedStream,
} from './google-product-feed.ts';
import {
  cachingHeaders,
  notModified,
  notModifiedAnswer,
  publicDescription,
  publicVersion,
  SlugParams,
} from './public/shared.ts';

/**
 * The feed's columns, in the order plaudit.meta_review_feed_page writes each row's cells: those of
 * Meta's Product Review Feed Schema (CSV) that Plaudit has a value for (docs/agents.md).
 */
export const META_REVIEW_FEED_COLUMNS = [
  'aggregator',
  'store.name',
  'store.id',
  'store.storeUrls',
  'reviewID',
  'rating',
  'title',
  'content',
  'created_at',
  'updated_at',
  'review_image_urls',
  'incentivized',
  'has_verified_purchase',
  'reviewer.name',
  'reviewer.isAnonymous',
  'product.name',
  'product.url',
  'product.image_urls',
  'product.productIdentifiers.skus',
  'product.productIdentifiers.gtins',
  'product.productIdentifiers.mpns',
] as const;

const HEADER = META_REVIEW_FEED_COLUMNS.join(',') + '\r\n';

const LeftOut = z.object({
  no_product_id: z.number().int().openapi({ description: 'Published reviews of the business, not of a product.' }),
  hidden: z.number().int().openapi({ description: 'Reviews the business hid.' }),
  not_published: z.number().int().openapi({
    description: 'Reviews waiting for verification or approval, or rejected.',
  }),
});
const FeedCounts = z.object({
  published: z.boolean().openapi({ description: 'Whether the feed is switched on (its address answers).' }),
  included: z.number().int().openapi({ description: 'Reviews in the feed: the published reviews of products.' }),
  left_out: LeftOut,
});
const FeedsReport = z.object({ google: FeedCounts, meta: FeedCounts }).openapi('ReviewFeedsReport');

export const reviewFeeds = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/feeds/{slug}/meta-product-reviews.csv',
      operationId: 'public.metaProductReviewFeed',
      tags: ['Public data'],
      summary: "Get Meta's product review feed",
      description:
        `Every published review of the business's products (not hidden; verified or unverified; reviews of the business are not in it), one CSV row each, in the columns of Meta's Product Review Feed Schema: ${
          META_REVIEW_FEED_COLUMNS.map((c) => `\`${c}\``).join(', ')
        }. \`incentivized\` and \`has_verified_purchase\` are on every row; no e-mail address ever is. 404 unless the public profile is on and its \`meta_review_feed\` setting is true. Public: no API key. Streamed; gzip when the request accepts it; \`ETag\`, \`Last-Modified\` and 304 as the Google feed.`,
      request: { params: SlugParams },
      responses: {
        200: {
          description: 'The feed',
          headers: feedHeaders,
          content: { 'text/csv': { schema: z.string().openapi({ description: 'The CSV feed, a header line first' }) } },
        },
        304: { description: 'Not modified: the feed is as the request has it', headers: feedHeaders },
        404: errorResponseSpec('Unknown slug, the public profile is off, or the feed is not switched on'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const { sql } = c.var;
      const state = await feedState(sql, slug, 'meta');
      if (state) tagPublicAnswer(c, { orgId: state.org_id });
      if (!state?.published) throw new ApiError(404, FEED_NOT_FOUND);
      const profileUrl = `${c.var.config.publicUrl}/p/${encodeURIComponent(slug)}`;
      return feedAnswer(c, state, {
        etagOf: `meta-product-reviews:${slug}`,
        contentType: 'text/csv; charset=utf-8',
        body: () =>
          pagedFeedStream({
            pageSize: FEED_PAGE_SIZE,
            head: () => HEADER,
            tail: () => '',
            page: (after, limit) =>
              feedPageOf(sql, (tx) =>
                tx`
                select csv, reviews, last_product, last_created_at, last_id
                  from plaudit.meta_review_feed_page(${slug}, ${profileUrl}, ${after?.product ?? null},
                                                     ${after?.createdAt ?? null}, ${after?.id ?? null}, ${limit})`),
          }),
      });
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/feeds/{slug}/report',
      operationId: 'public.reviewFeedsReport',
      tags: ['Public data'],
      summary: 'What the review feeds hold',
      description:
        `For each review feed (\`google\`, \`meta\`): whether it is switched on, how many reviews went in, and how many were left out by reason (\`no_product_id\`, \`hidden\`, \`not_published\`). 404 unless the public profile is on and one of the feeds is switched on. ${publicDescription}`,
      request: { params: SlugParams },
      responses: {
        200: { ...json(FeedsReport, "The feeds' figures"), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, the public profile is off, or no feed is switched on'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const out = await conditionalPublicRead(
        c,
        `review-feeds-report:${slug}`,
        () => publicVersion(c.var.sql, slug),
        async () => {
          const [row] = await runAsPublic(
            c.var.sql,
            (tx) =>
              tx<{ version: string | null; r: z.infer<typeof FeedsReport> | null }[]>`
              select plaudit.public_version(${slug}) as version, plaudit.review_feeds_report(${slug}) as r`,
          );
          if (row.version === null) return null;
          return row.r ? { version: row.version, ...row.r } : { version: row.version, absent: true as const };
        },
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw new ApiError(404, FEED_NOT_FOUND);
      return c.json({ google: out.data.google, meta: out.data.meta }, 200);
    },
  );
