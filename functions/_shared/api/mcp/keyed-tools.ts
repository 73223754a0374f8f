// The organization's tools, offered with `Authorization: Bearer rk_…`: each calls its route with
// the key, so that the key's scope allows it exactly as it allows the route, its calls count
// against the key's rate limit, and its tenant is the key's (another organization's reviews are
// never reached). Their answers are the routes' own (hidden reviews and e-mails included).
import { z } from 'zod';
import { ModerationInput, ReplyInput } from '../routes/reviews/moderation.ts';
import { ReviewRequestInput, StatsQuery } from '../routes/review-requests/shared.ts';
import { sha256Hex } from '../api-keys/format.ts';
import { errorResult, messageOf, routeResult, tool, type ToolContext, type ToolResult } from './tool.ts';

const ReviewId = z.string().uuid().describe("The review's id.");
const Page = z.number().int().min(1).optional().describe('The page, from 1.');
const Limit = z.number().int().min(1).max(100).optional().describe('Items a page, 1 to 100 (20 by default).');

// A key belongs to one organization for its whole life: which one, once asked (GET /me), is kept.
// A revoked key is refused by every route all the same; this is no session of the protocol's.
const organizations = new Map<string, string>();
const MAX_KEYS = 10_000;

/** The key's organization (GET /me), or the route's refusal as the tool's answer. */
async function organizationOf(ctx: ToolContext): Promise<string | ToolResult> {
  const key = sha256Hex(ctx.caller.authorization ?? '');
  const known = organizations.get(key);
  if (known) return known;
  const me = await ctx.caller.call('GET', '/me');
  if (me.status !== 200) return errorResult(messageOf(me));
  const orgId = (me.body as { organization_id: string }).organization_id;
  if (organizations.size >= MAX_KEYS) organizations.clear();
  organizations.set(key, orgId);
  return orgId;
}

/** Runs `call` with the key's organization's routes' prefix. */
async function inOrganization(ctx: ToolContext, call: (prefix: string) => Promise<ToolResult>): Promise<ToolResult> {
  const orgId = await organizationOf(ctx);
  return typeof orgId === 'string' ? await call(`/organizations/${orgId}`) : orgId;
}

const listReviews = tool({
  name: 'list_reviews',
  title: "The organization's reviews",
  description:
    "Every review of the key's organization, newest first, hidden ones and reviewers' e-mail addresses included (as GET /organizations/{orgId}/reviews answers); needs the read scope.",
  input: z.object({
    page: Page,
    limit: Limit,
    rating: z.number().int().min(1).max(5).optional(),
    min_rating: z.number().int().min(1).max(5).optional(),
    max_rating: z.number().int().min(1).max(5).optional(),
    verification_status: z.string().optional().describe('pending, verified, unverified or rejected.'),
    is_hidden: z.boolean().optional().describe('Only hidden (true) or only visible (false) reviews.'),
    product_external_id: z.string().min(1).max(200).optional(),
    q: z.string().min(1).max(200).optional().describe('Words that must all appear in the title or text.'),
    startDate: z.string().optional().describe('Created on or after (YYYY-MM-DD or ISO 8601).'),
    endDate: z.string().optional().describe('Created on or before (YYYY-MM-DD or ISO 8601).'),
  }),
  readOnly: true,
  run: async (a, ctx) => routeResult(await ctx.caller.call('GET', '/reviews', { query: a })),
});

const moderateReview = tool({
  name: 'moderate_review',
  title: 'Hide or unhide a review',
  description:
    'Hides a review from the public, or shows it again, with the reason kept in the moderation trail (PATCH …/reviews/{id}/moderate); needs the write scope.',
  input: ModerationInput.extend({ review_id: ReviewId }),
  readOnly: false,
  run: ({ review_id, ...body }, ctx) =>
    inOrganization(
      ctx,
      async (org) => routeResult(await ctx.caller.call('PATCH', `${org}/reviews/${review_id}/moderate`, { body })),
    ),
});

const replyToReview = tool({
  name: 'reply_to_review',
  title: "Reply to a review in the business's name",
  description:
    "Sets the business's public reply to a review, replacing any earlier one (PUT …/reviews/{id}/reply); needs the write scope.",
  input: ReplyInput.extend({ review_id: ReviewId }),
  readOnly: false,
  run: ({ review_id, ...body }, ctx) =>
    inOrganization(
      ctx,
      async (org) => routeResult(await ctx.caller.call('PUT', `${org}/reviews/${review_id}/reply`, { body })),
    ),
});

const sendReviewRequest = tool({
  name: 'send_review_request',
  title: 'Send a review request e-mail',
  description:
    'Queues a review request e-mail to a customer (POST …/review-requests): never to a suppressed address, within the daily quota; needs the write scope.',
  input: ReviewRequestInput,
  readOnly: false,
  run: (body, ctx) =>
    inOrganization(ctx, async (org) => routeResult(await ctx.caller.call('POST', `${org}/review-requests`, { body }))),
});

const getRequestStats = tool({
  name: 'get_request_stats',
  title: "Review requests' funnel",
  description:
    'How many review requests were sent, delivered, opened, clicked and completed in a range of days (GET …/review-requests/stats); needs the read scope.',
  input: StatsQuery,
  readOnly: true,
  run: (query, ctx) =>
    inOrganization(
      ctx,
      async (org) => routeResult(await ctx.caller.call('GET', `${org}/review-requests/stats`, { query })),
    ),
});

const listReports = tool({
  name: 'list_reports',
  title: "Visitors' reports of reviews",
  description:
    "Visitors' reports of reviews, newest first, each with the review it is about (GET …/reports); needs the read scope.",
  input: z.object({
    status: z.enum(['open', 'resolved']).optional().describe('open or resolved; both when left out.'),
    page: Page,
    limit: Limit,
  }),
  readOnly: true,
  run: (query, ctx) =>
    inOrganization(ctx, async (org) => routeResult(await ctx.caller.call('GET', `${org}/reports`, { query }))),
});

/** The tools a key adds. */
export const KEYED_TOOLS = [
  listReviews,
  moderateReview,
  replyToReview,
  sendReviewRequest,
  getRequestStats,
  listReports,
];
