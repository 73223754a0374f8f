// The widget's public reads: its configuration with its first reviews, and its list of reviews of
// the business.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { conditionalPublicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { runAsPublic } from '../../../core/db/roles.ts';
import { loadPublicProfile, publicProfileVersion } from '../../../core/db/public-profile.ts';
import { embedSnippet, widgetScriptUrl } from '../../assets/widget.ts';
import { firstPageOf, reviewPage } from './lists.ts';
import {
  ATTRIBUTE_FILTER_NOTE,
  AverageRating,
  cachingHeaders,
  notFound,
  notModified,
  notModifiedAnswer,
  publicDescription,
  PublicReview,
  PublicReviewQuery,
  ReviewCount,
  SlugParams,
} from './shared.ts';

/** How the widget lays out its reviews, and its colours (the profile settings' `embed`). */
export const Layout = z.enum(['list', 'grid', 'carousel']);
export const Theme = z.enum(['light', 'dark']);

const PublicEmbed = z.object({
  slug: z.string(),
  url: z.string().openapi({
    description: 'The public profile page, `{PUBLIC_URL}/p/{slug}`: where "see all reviews" leads.',
  }),
  name: z.string(),
  layout: Layout,
  theme: Theme,
  max_reviews: z.number().int(),
  min_rating: z.number().int(),
  average_rating: AverageRating,
  review_count: ReviewCount,
  enabled: z.boolean().openapi({
    description: 'False when the business switched its public profile off: the widget then shows nothing.',
  }),
  checking_recent_reviews: z.boolean().openapi({
    description:
      'True while the business checks an unusual number of recent reviews (a review bombing hold): show "We are checking an unusual number of recent reviews".',
  }),

  reviews: z.array(PublicReview).openapi({
    description:
      "The widget's first reviews (at most `max_reviews`, rated at least `min_rating`), newest first, so that it draws from this one answer.",
  }),
  script_url: z.string().openapi({ description: 'The widget script at its content-hashed, immutable address.' }),
  snippet: z.string().openapi({
    description:
      'The HTML to paste into a page: the container (with a link for readers without scripts) and the script tag.',
  }),
}).openapi('PublicEmbed');

/** The version of the embed answer: public_version's, and the chain head it carries. */
function profileVersion(c: Context<AppEnv>, slug: string) {
  return publicProfileVersion(c.var.sql, slug);
}

export const embedReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/embed/{slug}',
      operationId: 'public.embed',
      tags: ['Public data'],
      summary: 'Get embed configuration for a business',
      description: `The widget's settings, the business name and its aggregate rating. ${publicDescription}`,
      request: { params: SlugParams },
      responses: {
        200: { ...json(PublicEmbed, 'The embed configuration'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const out = await conditionalPublicRead(
        c,
        `embed:${slug}`,
        () => profileVersion(c, slug),
        async () => {
          // The profile and the widget's first reviews, side by side on two connections.
          const [profile, [page]] = await Promise.all([
            loadPublicProfile(c.var.sql, slug),
            runAsPublic(
              c.var.sql,
              (tx) => tx<{ items: string | null }[]>`select plaudit.public_embed_reviews(${slug})::text as items`,
            ),
          ]);
          if (!profile) return null;
          return { ...profile, reviews: page.items ?? '[]' };
        },
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      const p = out.data;
      if (!p) throw notFound();
      const url = `${c.var.config.publicUrl}/p/${encodeURIComponent(p.slug)}`;
      const scriptUrl = await widgetScriptUrl(c.var.config.publicUrl);
      const answer = {
        slug: p.slug,
        url,
        name: p.name,
        ...p.embed,
        average_rating: p.average_rating,
        review_count: Number(p.review_count),
        enabled: p.enabled,
        checking_recent_reviews: p.checking_recent_reviews,
        script_url: scriptUrl,
        snippet: embedSnippet(p.slug, p.name, url, scriptUrl, p.embed.layout),
      };
      // The reviews stay the database's JSON text, spliced in unparsed.
      return answerJsonText(
        c,
        jsonText<z.infer<typeof PublicEmbed>>(`${JSON.stringify(answer).slice(0, -1)},"reviews":${p.reviews}}`),
        200,
      );
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/reviews/{slug}',
      operationId: 'public.reviews',
      tags: ['Public data'],
      summary: 'Get public reviews for embed display',
      description:
        `The widget's reviews, newest first: public reviews rated at least the embed's \`min_rating\`.${ATTRIBUTE_FILTER_NOTE} ${publicDescription}`,
      request: { params: SlugParams, query: PublicReviewQuery },
      responses: {
        200: { ...json(Paginated(PublicReview), 'A page of public reviews'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug'),
      },
    }, { oneStatementRead: firstPageOf('embed') }),
    (c) => reviewPage(c, c.req.valid('param').slug, 'embed', c.req.valid('query')),
  );
