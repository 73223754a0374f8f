// Shoppers' signals on a published review: a helpful vote and a report. Public, no key, limited
// per client address in the database (as review submissions are), each one statement on the primary.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';
import { errorResponseSpec, json, jsonBody } from '../../http/schemas.ts';
import { setRateLimitHeaders, signalCaller, tooManyRequests } from '../../middleware/rate-limit/index.ts';
import {
  LEGAL_GROUND_MAX,
  noticeGaps,
  REPORT_DETAILS_MAX,
  REPORT_KINDS,
  REPORT_REASONS,
  reportReview,
  type SignalOutcome,
  voteHelpful,
} from '../../../core/db/shopper-signals.ts';
import { publicRoute, router } from '../define.ts';
import { SlugParams } from './shared.ts';

const ReviewSignalParams = SlugParams.extend({
  reviewId: z.string().uuid().openapi({
    param: { name: 'reviewId', in: 'path' },
    example: '9b2f4c1e-6a7d-4e8f-9c0b-1a2b3c4d5e6f',
    description: "The published review's id, as public review items give it",
  }),
});

export const ReportInput = z.object({
  reason: z.enum(REPORT_REASONS).openapi({ description: 'Why the review should be looked at.' }),
  details: z.string().trim().max(REPORT_DETAILS_MAX).nullable().optional().openapi({
    description: `What the business should know, up to ${REPORT_DETAILS_MAX} characters.`,
  }),
  kind: z.enum(REPORT_KINDS).default('policy').openapi({
    description:
      "`illegal`: a notice of illegal content (EU DSA Art. 16), naming the law in `legal_ground`; `policy` (the default): against the business's review policy.",
  }),
  legal_ground: z.string().trim().min(1).max(LEGAL_GROUND_MAX).nullable().optional().openapi({
    description: `The law the review breaks, and why (required for \`illegal\`), up to ${LEGAL_GROUND_MAX} characters.`,
  }),
  email: z.string().trim().max(320).email().nullable().optional().openapi({
    description:
      "Where to send the acknowledgement (at once) and the decision (when the report is resolved). Never shown to the business's API, the reviewer or the public.",
  }),
  good_faith: z.literal(true).optional().openapi({
    description:
      'The reporter states that the report is accurate and complete and made in good faith; required for `illegal`.',
  }),
}).superRefine((r, ctx) => {
  for (const gap of noticeGaps(r)) {
    ctx.addIssue({
      code: 'custom',
      path: [gap],
      message: gap === 'legal_ground' ? 'Required for an illegal review' : 'Must be true for an illegal review',
    });
  }
}).openapi('ReportInput', {
  example: {
    reason: 'personal_data',
    details: 'It names my neighbour and her address.',
    kind: 'illegal',
    legal_ground: 'GDPR Art. 6: personal data published without consent',
    email: 'reporter@example.com',
    good_faith: true,
  },
});

const HelpfulCount = z.object({
  helpful_count: z.number().int().openapi({
    description: 'How many visitors found the review helpful, this one included.',
  }),
}).openapi('HelpfulCount');

const REVIEW_NOT_FOUND = 'Review not found';
const refusals = {
  400: errorResponseSpec('The slug or review id is malformed'),
  404: errorResponseSpec('No published review with this id under this slug'),
  429: errorResponseSpec('Too many votes or reports from this address'),
};

/** The limit's headers; the 429 or the 404 the outcome calls for, else nothing. */
function refusal(c: Context<AppEnv>, outcome: SignalOutcome) {
  const decision = {
    limit: c.var.config.submitRateLimitPerMinute,
    remaining: outcome.rate_remaining,
    reset: Number(outcome.rate_reset),
    allowed: outcome.rate_allowed,
  };
  setRateLimitHeaders(c, decision);
  if (!decision.allowed) return tooManyRequests(c, decision);
  if (!outcome.published) throw new ApiError(404, REVIEW_NOT_FOUND);
  return null;
}

export const signalWrites = router()
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/reviews/{slug}/{reviewId}/helpful',
      operationId: 'public.voteHelpful',
      tags: ['Public data'],
      summary: 'Find a review helpful',
      description:
        "Public: no API key. One vote per review and network: a visitor is told apart by a keyed hash of its address (an IPv6 address's /64) and the review, never by a cookie or its user agent, and a repeat changes nothing. Only published reviews take votes. Limited per client IP (`SUBMIT_RATE_LIMIT_PER_MINUTE`).",
      request: { params: ReviewSignalParams },
      responses: { 200: json(HelpfulCount, "The review's helpful votes"), ...refusals },
    }),
    async (c) => {
      const { slug, reviewId } = c.req.valid('param');
      const outcome = await voteHelpful(c.var.sql, signalCaller('helpful', c), slug, reviewId);
      const refused = refusal(c, outcome);
      // The shared 429 answer (with Retry-After) is untyped for this route's response map.
      if (refused) return refused as never;
      c.header('Cache-Control', 'no-store');
      return c.json({ helpful_count: outcome.helpful_count ?? 0 }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/reviews/{slug}/{reviewId}/reports',
      operationId: 'public.reportReview',
      tags: ['Public data'],
      summary: 'Report a review',
      description:
        "Public: no API key. The report reaches the business (`GET /organizations/{orgId}/reports`, the `review.reported` event); it never hides the review by itself. One open report per review and network (its address, an IPv6 address's /64): a repeat while it is open answers 202 and changes nothing. The reporter's network address is never stored. A report is a notice under the EU's Digital Services Act (Art. 16) when `kind` is `illegal`; with an `email`, the reporter is mailed an acknowledgement at once and the decision when the business resolves it. Only published reviews can be reported. Limited per client IP (`SUBMIT_RATE_LIMIT_PER_MINUTE`).",
      request: { params: ReviewSignalParams, body: jsonBody(ReportInput) },
      responses: {
        202: { description: 'The report was taken' },
        ...refusals,
        422: errorResponseSpec('A field failed validation; the message names it'),
      },
    }),
    async (c) => {
      const { slug, reviewId } = c.req.valid('param');
      const report = c.req.valid('json');
      const outcome = await reportReview(c.var.sql, signalCaller('report', c), slug, reviewId, {
        reason: report.reason,
        details: report.details || null,
        kind: report.kind,
        legal_ground: report.legal_ground || null,
        email: report.email || null,
        good_faith: report.good_faith ?? null,
      });
      const refused = refusal(c, outcome);
      if (refused) return refused as never;
      return c.body(null, 202);
    },
  );
