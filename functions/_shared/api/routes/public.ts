import { createRoute, z } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { Sql } from '../../core/db/client.ts';
import { ApiError } from '../http/errors.ts';
import type { AppEnv } from '../http/env.ts';
import { Paginated, type Pagination, PaginationQuery } from '../http/pagination.ts';
import { ChainHead, errorResponseSpec, json } from '../http/schemas.ts';
import { answerPublicRead, conditionalPublicRead, publicCors, publicRead } from '../middleware/public-access/index.ts';
import { type PublicReadDeclaration, publicRoute, router } from './define.ts';
import { answerJsonText, type JsonText, jsonText } from '../http/json-text.ts';
import { ReviewReply, VerificationStatus } from './reviews/shape.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { loadPublicProfile, type PublicProfileRow, publicProfileVersion } from '../../core/db/public-profile.ts';
import { embedSnippet, widgetScriptUrl } from '../assets/widget.ts';

/** How the widget lays out its reviews, and its colours (the profile settings' `embed`). */
export const Layout = z.enum(['list', 'grid', 'carousel']);
export const Theme = z.enum(['light', 'dark']);

const AverageRating = z.number().nullable().openapi({
  description: 'Mean rating of the public reviews, to 2 decimals; null with no reviews.',
  example: 4.63,
});
const ReviewCount = z.number().int().openapi({
  description: 'Number of public reviews (not hidden, verified or unverified).',
});

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
  reviews: z.array(z.lazy(() =>
    PublicReview.extend({
      verification_method: z.enum(['email', 'purchase_proof', 'manual', 'invitation']).nullable().openapi({
        description: 'How a verified review was verified; null for an unverified one.',
      }),
    })
  )).openapi({
    description:
      "The widget's first reviews (at most `max_reviews`, rated at least `min_rating`), newest first, so that it draws from this one answer.",
  }),
  script_url: z.string().openapi({ description: 'The widget script at its content-hashed, immutable address.' }),
  snippet: z.string().openapi({
    description:
      'The HTML to paste into a page: the container (with a link for readers without scripts) and the script tag.',
  }),
}).openapi('PublicEmbed');

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
  rating_distribution: z.object({
    1: z.number().int(),
    2: z.number().int(),
    3: z.number().int(),
    4: z.number().int(),
    5: z.number().int(),
  })
    .openapi({ description: 'Number of public reviews per rating.' }),
  moderation_chain: ChainHead,
}).openapi('PublicProfile');

const PublicReview = z.object({
  id: z.string().uuid(),
  rating: z.number().int(),
  title: z.string().nullable(),
  content: z.string(),
  reviewer_name: z.string(),
  verification_status: VerificationStatus.openapi({
    description: '`verified` or `unverified`: nothing else is public.',
  }),
  reply: ReviewReply.nullable().openapi({ description: "The business's public reply, or null." }),
  created_at: z.string(),
}).openapi('PublicReview');

const SlugParams = z.object({
  slug: z.string().min(1).max(200).openapi({
    param: { name: 'slug', in: 'path' },
    example: 'acme',
    description: "The business's public slug",
  }),
});

const VERIFICATION_TOKEN = /^[0-9A-Za-z]{20,100}$/;

const TokenParams = z.object({
  token: z.string().max(200).openapi({
    param: { name: 'token', in: 'path' },
    description: 'The verification token from the e-mailed link',
  }),
});

type ProfileRow = PublicProfileRow;
/** A page as the database renders it: the items stay JSON text, passed through unparsed. */

/** The 404 of the public routes. */
export const BUSINESS_NOT_FOUND = 'Business not found';
const notFound = () => new ApiError(404, BUSINESS_NOT_FOUND);

const cachingHeaders = {
  ETag: { description: 'Changes when anything in the answer may have changed', schema: { type: 'string' as const } },
  'Cache-Control': {
    description: '`public, max-age=30, stale-while-revalidate=300`',
    schema: { type: 'string' as const },
  },
};
const notModified = { description: 'Not modified: the `If-None-Match` ETag is current', headers: cachingHeaders };
const publicDescription =
  'Public: no API key; any site may call it (CORS `*`). Answers carry `ETag` and `Cache-Control`; a request with a current `If-None-Match` gets 304 without any review being read.';

function loadProfile(c: Context<AppEnv>, slug: string) {
  return loadPublicProfile(c.var.sql, slug);
}

/** The version of the public data, as plaudit_public reads it, in one statement. */
async function publicVersion(sql: Sql, slug: string) {
  const [row] = await sql<{ v: string | null }[]>`select plaudit.public_read_version(${slug}) as v`;
  return row.v;
}

/** The version of the profile and embed answers: public_version's, and the chain head they carry. */
function profileVersion(c: Context<AppEnv>, slug: string) {
  return publicProfileVersion(c.var.sql, slug);
}

/** What a public review page answers without a query string (PaginationQuery's defaults). */
export const FIRST_REVIEW_PAGE: Pagination = PaginationQuery.parse({});

/**
 * A page of public reviews with ETag revalidation (publicRead): the route's decision, which the
 * fast reads take too. 304 runs public_read_version alone; the page is one statement, as
 * plaudit_public, whose body is the database's JSON text, never parsed here; null body: not found.
 */
export function publicReviewPage(
  sql: Sql,
  ifNoneMatch: string | undefined,
  slug: string,
  scope: 'embed' | 'profile',
  page: Pagination,
) {
  return publicRead(
    ifNoneMatch,
    `${scope}-reviews:${slug}:${page.page}:${page.limit}`,
    () => publicVersion(sql, slug),
    async () => {
      const [row] = await sql<{ version: string; body: JsonText<PublicReviewPage> | null }[]>`
        select version, body from plaudit.public_read_review_page(${slug}, ${scope}, ${page.page}, ${page.limit})`;
      return row.body === null ? null : { version: row.version, body: row.body };
    },
  );
}

/** The 304 of a public read, typed as the routes declare it (no content). */
// deno-lint-ignore ban-types -- Hono's type of an answer without content
const notModifiedAnswer = (answer: Response) => answer as unknown as TypedResponse<{}, 304, string>;

type PublicReviewPage = z.infer<ReturnType<typeof Paginated<typeof PublicReview>>>;

async function reviewPage(c: Context<AppEnv>, slug: string, scope: 'embed' | 'profile', page: Pagination) {
  const out = answerPublicRead(c, await publicReviewPage(c.var.sql, c.req.header('if-none-match'), slug, scope, page));
  if ('notModified' in out) return notModifiedAnswer(out.notModified);
  if (!out.data) throw notFound();
  return answerJsonText(c, out.data.body);
}

/** A feed's first page, which the fast path answers too (routes/define.ts, publicRoute). */
const firstPageOf = (scope: 'embed' | 'profile'): PublicReadDeclaration => ({
  read: (sql, { slug }, ifNoneMatch) => publicReviewPage(sql, ifNoneMatch, slug, scope, FIRST_REVIEW_PAGE),
  notFound: BUSINESS_NOT_FOUND,
});

// The e-mail verification link's answer: a small page, for people.
// What verifying a review by its e-mailed token answered, as the API says it.
const VERIFICATION_REFUSALS = {
  already_used: [409, 'This verification link has already been used'],
  not_pending: [409, 'This review does not need verifying any more'],
  expired: [410, 'This verification link has expired: links are valid for 7 days'],
  invalid: [404, 'Verification link not found'],
} as const;

export const publicData = router();
publicData.use('/public/*', publicCors({ methods: ['GET', 'HEAD'] }));
publicData
  .openapi(
    createRoute({
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
            loadProfile(c, slug),
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
        `The widget's reviews, newest first: public reviews rated at least the embed's \`min_rating\`. ${publicDescription}`,
      request: { params: SlugParams, query: PaginationQuery },
      responses: {
        200: { ...json(Paginated(PublicReview), 'A page of public reviews'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug'),
      },
    }, { oneStatementRead: firstPageOf('embed') }),
    (c) => reviewPage(c, c.req.valid('param').slug, 'embed', c.req.valid('query')),
  )
  .openapi(
    createRoute({
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
      const out = await conditionalPublicRead(c, `profile:${slug}`, () => profileVersion(c, slug), async () => {
        const p = await loadProfile(c, slug);
        return p && p.enabled ? p : null;
      });
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
        moderation_chain: { entries: Number(p.moderation_chain.entries), head: p.moderation_chain.head },
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
        `Every public review of the business (not hidden; verified or unverified), newest first. 404 when the profile is disabled. ${publicDescription}`,
      request: { params: SlugParams, query: PaginationQuery },
      responses: {
        200: { ...json(Paginated(PublicReview), 'A page of public reviews'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }, { oneStatementRead: firstPageOf('profile') }),
    (c) => reviewPage(c, c.req.valid('param').slug, 'profile', c.req.valid('query')),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/public/verifications/{token}',
      operationId: 'public.openVerificationLink',
      tags: ['Public data'],
      summary: 'Open the e-mailed verification link',
      description:
        "The link in the verification e-mail (`{PUBLIC_URL}/api/v1/public/verifications/{token}`). Opening it verifies nothing (mail providers' link scanners open every link): it answers 303 to the hosted page `{PUBLIC_URL}/verify/{token}`, whose button confirms. A malformed token answers 404.",
      request: { params: TokenParams },
      responses: {
        303: { description: 'To the hosted confirmation page', headers: { Location: { schema: { type: 'string' } } } },
        404: errorResponseSpec('Not a valid link'),
      },
    }),
    (c) => {
      const { token } = c.req.valid('param');
      if (!VERIFICATION_TOKEN.test(token)) throw new ApiError(404, VERIFICATION_REFUSALS.invalid[1]);
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return c.redirect(`${c.var.config.publicUrl}/verify/${token}`, 303) as never;
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/public/verifications/{token}',
      operationId: 'public.verify',
      tags: ['Public data'],
      summary: 'Verify a review with its e-mailed token',
      description:
        "Verifies the review once, for a landing page of your own: the token is the one in the verification e-mail's link. Already used or nothing to verify: 409; expired: 410; not valid: 404.",
      request: { params: TokenParams },
      responses: {
        200: json(z.object({ status: z.literal('verified') }), 'The review is verified'),
        404: errorResponseSpec('Not a valid link'),
        409: errorResponseSpec('Already used, or the review is no longer pending'),
        410: errorResponseSpec('Expired'),
      },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      c.header('Cache-Control', 'no-store');
      if (!VERIFICATION_TOKEN.test(token)) throw new ApiError(404, VERIFICATION_REFUSALS.invalid[1]);
      const [row] = await runAsPublic(c.var.sql, (tx) =>
        tx<{ outcome: string }[]>`
        select outcome from plaudit.verify_review_by_token(${token})`);
      if (row.outcome === 'verified') return c.json({ status: 'verified' as const }, 200);
      const [status, message] = VERIFICATION_REFUSALS[row.outcome as keyof typeof VERIFICATION_REFUSALS] ??
        VERIFICATION_REFUSALS.invalid;
      throw new ApiError(status, message);
    },
  );
