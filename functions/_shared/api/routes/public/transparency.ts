// The business's transparency report: how its reviews are collected, verified, published,
// hidden and ordered, every figure counted from the data (docs/trust.md, "Transparency").
import { z } from '@hono/zod-openapi';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { conditionalPublicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import {
  loadShownTransparency,
  READER_ORDERS,
  transparencyReport,
  transparencyVersion,
} from '../../../core/db/public-transparency.ts';
import { DSA_FIRST_YEAR, loadPublicDsa } from '../../../core/db/public-dsa.ts';
import { DsaTransparencyReport } from '../dsa-transparency.ts';
import { cachingHeaders, notFound, notModified, notModifiedAnswer, publicDescription, SlugParams } from './shared.ts';

const Count = z.number().int();
const AllTimeAndRecent = z.object({
  all_time: Count.openapi({ description: 'Since the business began.' }),
  last_12_months: Count.openapi({ description: 'Written in the twelve calendar months of `period` (UTC).' }),
});
const Share = z.object({
  count: Count,
  share: z.number().nullable().openapi({
    description: 'count ÷ the reviews published of the last 12 months, to 4 decimals; null when there are none.',
  }),
});

const Transparency = z.object({
  slug: z.string(),
  name: z.string(),
  url: z.string().openapi({ description: 'The report as a page: `{PUBLIC_URL}/p/{slug}/transparency`.' }),
  period: z.object({
    since: z.string().openapi({
      description:
        'First day (UTC) of the twelve calendar months, this month included, that the `last_12_months` figures count.',
      example: '2025-12-01',
    }),
    months: z.literal(12),
  }),
  received: AllTimeAndRecent.openapi({
    description:
      'Every review written, whatever became of it: published, waiting for verification, rejected or hidden.',
  }),
  published: AllTimeAndRecent.openapi({
    description:
      'Reviews the public sees now: not hidden, and verified or unverified (of the business and its products).',
  }),
  not_published_last_12_months: z.object({
    pending: Count.openapi({ description: 'Waiting for verification or approval.' }),
    rejected: Count.openapi({ description: 'Failed verification, or not approved.' }),
    hidden: Count.openapi({ description: 'Hidden by the business (each with a recorded reason).' }),
  }).openapi({
    description: 'Reviews of the last 12 months the public does not see, and why: received = published + these.',
  }),
  verification_last_12_months: z.object({
    email: Count,
    purchase_proof: Count,
    manual: Count,
    invitation: Count,
    unverified: Count.openapi({ description: 'Published without verification (forms that do not verify).' }),
  }).openapi({ description: 'Published reviews of the last 12 months by how they were verified.' }),
  shares_last_12_months: z.object({ verified: Share, incentivized: Share, imported: Share }).openapi({
    description:
      'Of the published reviews of the last 12 months: those verified, those written for an incentive (a discount, a gift …), those imported from another platform.',
  }),
  hidden_by_month: z.array(z.object({
    month: z.string().openapi({ example: '2026-11' }),
    hidden: Count.openapi({ description: 'Hides recorded that month (a review hidden twice counts twice).' }),
    reasons: z.array(z.object({ reason: z.string(), count: Count })).openapi({
      description: 'The reasons recorded, as written by the business, most frequent first.',
    }),
  })).openapi({ description: 'The twelve months of `period`, oldest first, zeros included.' }),
  ordering: z.object({
    default: z.enum(READER_ORDERS),
    orders: z.array(z.enum(READER_ORDERS)).openapi({ description: 'The orders a reader may pick.' }),
    by_payment: z.literal(false).openapi({ description: 'Nothing is ordered by payment.' }),
    by_rating_only_when_chosen: z.literal(true).openapi({
      description: 'Lists are ordered by rating only when the reader picks that order.',
    }),
    widget_min_rating: z.number().int().openapi({
      description: "The lowest rating the business's website widget shows (1: all).",
    }),
    statement: z.string(),
  }),
  publication: z.object({
    all_published: z.boolean().openapi({ description: 'Every review ever received is published now.' }),
    forms_by_verification_mode: z.object({ none: Count, email: Count, purchase_proof: Count, manual: Count })
      .openapi({ description: "The business's active forms by verification mode (`manual`: approved by hand)." }),
    statement: z.string(),
  }),
  moderation_chain: z.object({
    entries: Count,
    head: z.string().nullable().openapi({ description: 'Hex SHA-256 of the last entry; null before the first.' }),
    check_url: z.string().openapi({ description: 'The check of this head (a read key of the business answers it).' }),
    how_to_verify: z.string(),
    docs_url: z.string(),
  }),
  dsa: DsaTransparencyReport.openapi({
    description:
      "The year's figures of the EU transparency-report template (the `year` asked for, else the current one), the same the admin report `…/transparency/dsa` answers.",
  }),
  dsa_years: z.array(z.number().int()).openapi({
    description: 'The years with a notice, statement of reasons or appeal, newest first: the years worth asking for.',
  }),
}).openapi('Transparency');

const TransparencyQuery = z.object({
  year: z.coerce.number().int().min(DSA_FIRST_YEAR)
    .refine((y) => y <= new Date().getUTCFullYear(), { message: 'must not be after the current year' })
    .optional()
    .openapi({
      param: { name: 'year', in: 'query' },
      description:
        `The year of \`dsa\` (UTC), from ${DSA_FIRST_YEAR} to the current one; the current one when left out.`,
      example: 2025,
    }),
});

export const transparencyReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/transparency/{slug}',
      operationId: 'public.transparency',
      tags: ['Public data'],
      summary: 'Get the transparency report',
      description:
        `How the business's reviews are collected, verified, published, hidden and ordered, each figure counted from the data: reviews received and published (all time and the last 12 months), by verification method, hides by month and reason, the shares verified, incentivized and imported, the orders offered, the forms' moderation, the moderation chain head, and a year's DSA figures (\`dsa\`: notices, decisions, own-initiative restrictions, appeals) with the years that have any. 404 when the profile is disabled. ${publicDescription}`,
      request: { params: SlugParams, query: TransparencyQuery },
      responses: {
        200: { ...json(Transparency, 'The transparency report'), headers: cachingHeaders },
        304: notModified,
        400: errorResponseSpec('The year is not a year, before 2020 or after the current one'),
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const year = c.req.valid('query').year ?? new Date().getUTCFullYear();
      const out = await conditionalPublicRead(
        c,
        `transparency:${slug}:${year}`,
        () => transparencyVersion(c.var.sql, slug),
        async () => {
          const t = await loadShownTransparency(c.var.sql, slug);
          if (!t || 'absent' in t) return t;
          const dsa = await loadPublicDsa(c.var.sql, slug, year);
          return dsa && { ...t, dsa };
        },
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw notFound();
      const { dsa, ...t } = out.data;
      return c.json({ ...transparencyReport(t, c.var.config.publicUrl), dsa: dsa.report, dsa_years: dsa.years }, 200);
    },
  );
