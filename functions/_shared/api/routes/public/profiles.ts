// The business's public profile and its list of reviews of the business.
import { z } from '@hono/zod-openapi';
import { Paginated } from '../../http/pagination.ts';
import { ChainHead, errorResponseSpec, json } from '../../http/schemas.ts';
import { conditionalPublicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import { loadPublicProfile, publicProfileVersion } from '../../../core/db/public-profile.ts';
import { firstPageOf, reviewPage } from './lists.ts';
import { attributeSummaries } from '../../../core/attributes.ts';
import {
  ATTRIBUTE_FILTER_NOTE,
  AttributeSummaries,
  AverageRating,
  cachingHeaders,
  notFound,
  notModified,
  notModifiedAnswer,
  publicDescription,
  PublicReview,
  PublicReviewQuery,
  RatingDistribution,
  ReviewCount,
  SlugParams,
  UcpRating,
  ucpRating,
} from './shared.ts';

const PublicProfile = z.object({
  slug: z.string(),
  url: z.string().openapi({
    description: 'The public profile page, `{PUBLIC_URL}/p/{slug}`.',
    example: 'https://reviews.example.com/p/acme',
  }),
  name: z.string(),
  description: z.string().nullable(),
  website: z.string().nullable(),
  logo_url: z.string().nullable(),
  average_rating: AverageRating,
  review_count: ReviewCount,
  rating_distribution: RatingDistribution,
  rating: UcpRating,
  moderation_chain: ChainHead,
  attributes: AttributeSummaries,
  checking_recent_reviews: z.boolean().openapi({
    description:
      'True while the business checks an unusual number of recent reviews (a review bombing hold): show "We are checking an unusual number of recent reviews".',
  }),
}).openapi('PublicProfile');

export const profileReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/profiles/{slug}',
      operationId: 'public.profile',
      tags: ['Public data'],
      summary: 'Get public profile data',
      description:
        `The business's public profile with \`average_rating\`, \`review_count\` and \`rating_distribution\` (kept by the database as reviews change). 404 when the profile is disabled. ${publicDescription}`,
      request: { params: SlugParams },
      responses: {
        200: { ...json(PublicProfile, 'The public profile'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const out = await conditionalPublicRead(
        c,
        `profile:${slug}`,
        () => publicProfileVersion(c.var.sql, slug),
        async () => {
          const p = await loadPublicProfile(c.var.sql, slug);
          if (!p) return null;
          return p.enabled ? p : { version: p.version, absent: true as const };
        },
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      const p = out.data;
      if (!p) throw notFound();
      const d = p.rating_distribution;
      return c.json({
        slug: p.slug,
        url: `${c.var.config.publicUrl}/p/${encodeURIComponent(p.slug)}`,
        name: p.name,
        description: p.description,
        website: p.website,
        logo_url: p.logo_url,
        average_rating: p.average_rating,
        review_count: Number(p.review_count),
        rating_distribution: {
          1: Number(d['1']),
          2: Number(d['2']),
          3: Number(d['3']),
          4: Number(d['4']),
          5: Number(d['5']),
        },
        rating: ucpRating(p.average_rating === null ? null : Number(p.average_rating), Number(p.review_count)),
        moderation_chain: { entries: Number(p.moderation_chain.entries), head: p.moderation_chain.head },
        attributes: attributeSummaries(p.attributes),
        checking_recent_reviews: p.checking_recent_reviews,
      }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/profiles/{slug}/reviews',
      operationId: 'public.profileReviews',
      tags: ['Public data'],
      summary: 'Get paginated public reviews',
      description:
        `Every public review of the business (not hidden; verified or unverified), newest first.${ATTRIBUTE_FILTER_NOTE} 404 when the profile is disabled. ${publicDescription}`,
      request: { params: SlugParams, query: PublicReviewQuery },
      responses: {
        200: { ...json(Paginated(PublicReview), 'A page of public reviews'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }, { oneStatementRead: firstPageOf('profile') }),
    (c) => reviewPage(c, c.req.valid('param').slug, 'profile', c.req.valid('query')),
  );
