// Public summaries of reviews that show their evidence (docs/summaries.md): the business's (its
// own reviews) and a product's (over its group), as the worker made them; each sentence with the
// reviews that support it. One statement as plaudit_public, with ETag revalidation on the public
// version (which a new summary moves, as a hidden review does).
import { z } from '@hono/zod-openapi';
import type { Sql } from '../../../core/db/client.ts';
import { readPublicSummary } from '../../../core/db/public-summary.ts';
import { readOnReplica } from '../../../core/db/routing.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, type JsonText } from '../../http/json-text.ts';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { type Absent, answerPublicRead, publicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import {
  cachingHeaders,
  notModified,
  notModifiedAnswer,
  productVersion,
  publicDescription,
  publicVersion,
  SlugParams,
} from './shared.ts';

export const SUMMARY_NOT_FOUND = 'Summary not found';

const ReviewIds = z.array(z.string().uuid());

export const ReviewSummary = z.object({
  review_count: z.number().int().openapi({ description: 'How many published reviews the summary was made from.' }),
  generated_at: z.string().openapi({ description: 'When the worker made it (ISO 8601, UTC).' }),
  language: z.string().nullable().openapi({
    description: 'The language most of its reviews are written in (ISO 639-1), or null.',
  }),
  sentences: z.array(z.object({
    text: z.string().openapi({
      description: "A sentence of a review (or phrased from them): the reviewers' text, never markup.",
    }),
    sentiment: z.enum(['positive', 'negative', 'mixed']),
    review_ids: ReviewIds.openapi({
      description:
        'Every published review that supports the sentence (same topic, same stance); the first is the one it quotes.',
    }),
    count: z.number().int().openapi({ description: 'How many reviews support it.' }),
  })).openapi({
    description:
      'The share of negative and positive sentences follows the share of 1–2 and 4–5 star reviews. A cited review that is hidden or erased leaves at once; a sentence quoting it, or left with no citation, goes.',
  }),
  topics: z.array(z.object({
    name: z.string(),
    mentions: z.number().int().openapi({ description: 'Reviews that mention it, each once.' }),
    positive: z.number().int(),
    negative: z.number().int(),
    review_ids: ReviewIds.openapi({ description: 'The first 20 reviews that mention it.' }),
  })),
}).openapi('ReviewSummary');
export type ReviewSummaryBody = z.infer<typeof ReviewSummary>;

const ProductParams = SlugParams.extend({
  externalId: z.string().min(1).max(200).openapi({
    param: { name: 'externalId', in: 'path' },
    example: 'MUG-1',
    description: "The product's external id (the business's own), URL-encoded",
  }),
});

const summaryNote =
  'Made by the worker from the published reviews (no outside service), and made again once they have grown by 10 % or more. 404 below 5 published reviews, or before the first summary is made.';

/** A summary with ETag revalidation, in one statement, on a replica that serves when there is one. */
function summaryRead(sql: Sql, ifNoneMatch: string | undefined, slug: string, externalId: string | null) {
  return readOnReplica(sql, (db) =>
    publicRead(
      ifNoneMatch,
      externalId === null ? `summary:${slug}` : `product-summary:${slug}:${externalId}`,
      () => externalId === null ? publicVersion(db, slug) : productVersion(db, slug, externalId),
      async (): Promise<{ version: string; body: JsonText<ReviewSummaryBody> } | Absent | null> => {
        const row = await readPublicSummary(db, slug, externalId);
        if (row.version === null) return null;
        if (row.body === null) return { version: row.version, absent: true };
        return { version: row.version, body: row.body as JsonText<ReviewSummaryBody> };
      },
    ));
}

export const summaryReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/summaries/{slug}',
      operationId: 'public.summary',
      tags: ['Public data'],
      summary: "Get the summary of a business's reviews",
      description:
        `What the reviews of the business (not of its products) say, each sentence with the reviews that support it, and their topics. ${summaryNote} ${publicDescription}`,
      request: { params: SlugParams },
      responses: {
        200: { ...json(ReviewSummary, 'The summary'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, a disabled profile, or fewer than 5 published reviews'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const out = answerPublicRead(c, await summaryRead(c.var.sql, c.req.header('if-none-match'), slug, null));
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw new ApiError(404, SUMMARY_NOT_FOUND);
      return answerJsonText(c, out.data.body, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/{externalId}/summary',
      operationId: 'public.productSummary',
      tags: ['Public data'],
      summary: "Get the summary of a product's reviews",
      description:
        `What the reviews of the product (over its group) say, each sentence with the reviews that support it, and their topics. ${summaryNote} ${publicDescription}`,
      request: { params: ProductParams },
      responses: {
        200: { ...json(ReviewSummary, 'The summary'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug or product, a disabled profile, or fewer than 5 published reviews'),
      },
    }),
    async (c) => {
      const { slug, externalId } = c.req.valid('param');
      const read = await summaryRead(c.var.sql, c.req.header('if-none-match'), slug, externalId);
      const out = answerPublicRead(c, read);
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw new ApiError(404, SUMMARY_NOT_FOUND);
      return answerJsonText(c, out.data.body, 200);
    },
  );
