// The public tools: what anyone may read of a business, without a key, as the public routes and
// pages show it. get_rating, get_transparency and get_summary answer what their routes answer; search_reviews
// and list_products search, which no route does, with the public functions of agent_reads.sql.
import { z } from 'zod';
import { runAsPublic } from '../../core/db/roles.ts';
import { BUSINESS_NOT_FOUND, REVIEW_SORTS } from '../routes/public/shared.ts';
import { PRODUCT_NOT_FOUND } from '../routes/public/products.ts';
import {
  cursorOf,
  dataResult,
  errorResult,
  invalidArguments,
  offsetOf,
  routeResult,
  tool,
  type ToolContext,
} from './tool.ts';

const Business = z.string().min(1).max(200).describe(
  "The business's public slug (as in its page's address, /p/{slug}).",
);
const Product = z.string().min(1).max(200).describe("The product's id of the business's own (its external id).");
const Cursor = z.string().max(200).describe('The `next_cursor` of the previous answer, for the next window.');

/** The review fields a public tool answers, in this order: never an e-mail address, nothing else. */
export const PUBLIC_TOOL_REVIEW_FIELDS = [
  'id',
  'rating',
  'title',
  'content',
  'reviewer_name',
  'created_at',
  'verification_status',
  'verification_method',
  'source',
  'source_platform',
  'incentivized',
  'helpful_count',
  'product',
  'url',
] as const;

type PublicItem = Record<string, unknown> & { id: string; product: { external_id: string } | null };

/** A public review item (plaudit.public_review_json) as a tool answers it, with its public page's address. */
function reviewOf(item: PublicItem, slug: string, ctx: ToolContext) {
  const base = `${ctx.config.publicUrl}/p/${encodeURIComponent(slug)}`;
  const page = item.product ? `${base}/products/${encodeURIComponent(item.product.external_id)}` : base;
  const withUrl: Record<string, unknown> = { ...item, url: `${page}#review-${item.id}` };
  return Object.fromEntries(PUBLIC_TOOL_REVIEW_FIELDS.map((k) => [k, withUrl[k]]));
}

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

const getRating = tool({
  name: 'get_rating',
  title: "A business's or a product's rating",
  description:
    "The public rating summary of a business (its slug as `business`), or of one of its products (`product`, the business's own id; a product in a group answers for its whole group): average rating, review count, distribution per star, and `rating` in the Universal Commerce Protocol's shape (null without reviews).",
  input: z.object({ business: Business, product: Product.optional() }),
  readOnly: true,
  run: async ({ business, product }, ctx) => {
    if (product === undefined) {
      return routeResult(await ctx.caller.call('GET', `/public/profiles/${path(business)}`), (p) => ({
        business: p.slug,
        name: p.name,
        url: p.url,
        average_rating: p.average_rating,
        review_count: p.review_count,
        rating_distribution: p.rating_distribution,
        rating: p.rating,
      }));
    }
    return routeResult(await ctx.caller.call('GET', `/public/products/${path(business, product)}`), (p) => ({
      business,
      product: { external_id: p.external_id, name: p.name, url: p.url },
      average_rating: p.average_rating,
      review_count: p.review_count,
      rating_distribution: p.rating_distribution,
      rating: p.rating,
    }));
  },
});

const searchReviews = tool({
  name: 'search_reviews',
  title: 'Search published reviews',
  description:
    "Published reviews of a business (its own and its products'), or of one product (its group's), found by words and filters, in windows of up to 20 with a `next_cursor`. Each review: id, rating, title, content, reviewer_name, created_at, verification_status, verification_method, source, source_platform, incentivized, helpful_count, product, url (its public page).",
  input: z.object({
    business: Business,
    product: Product.optional(),
    query: z.string().trim().min(1).max(200).optional().describe(
      'Words that must all appear in the title or text ("quoted phrases" and -excluded words work).',
    ),
    rating: z.number().int().min(1).max(5).optional().describe('Only reviews of this rating.'),
    verified_only: z.boolean().optional().describe('Only verified reviews.'),
    with_media: z.boolean().optional().describe('Only reviews with photos or videos.'),
    sort: z.enum(REVIEW_SORTS).optional().describe('newest (the default), oldest, highest, lowest or helpful.'),
    limit: z.number().int().min(1).max(20).optional().describe('How many reviews, 1 to 20 (10 by default).'),
    cursor: Cursor.optional(),
  }),
  readOnly: true,
  run: async (a, ctx) => {
    const offset = offsetOf(a.cursor);
    const limit = a.limit ?? 10;
    const [{ found }] = await runAsPublic(
      ctx.sql,
      (tx) =>
        tx<{ found: { items: PublicItem[]; more: boolean; product_missing?: true } | null }[]>`
        select plaudit.public_search_reviews(
          ${a.business}, ${a.product ?? null}, ${a.query ?? null}, ${a.rating ?? null}, ${a.verified_only ?? false},
          ${a.with_media ?? false}, ${a.sort ?? 'newest'}, ${offset}, ${limit}) as found`,
    );
    if (!found) return errorResult(BUSINESS_NOT_FOUND);
    if (found.product_missing) return errorResult(PRODUCT_NOT_FOUND);
    return dataResult({
      reviews: found.items.map((r) => reviewOf(r, a.business, ctx)),
      next_cursor: found.more ? cursorOf(offset + limit) : null,
    });
  },
});

const listProducts = tool({
  name: 'list_products',
  title: "A business's products",
  description:
    "The products a business's public pages list (by name), each with its public figures over its group, found by words of its name, id or brand; in windows of up to 50 with a `next_cursor`.",
  input: z.object({
    business: Business,
    query: z.string().trim().min(1).max(200).optional().describe("Text found in the product's name, id or brand."),
    limit: z.number().int().min(1).max(50).optional().describe('How many products, 1 to 50 (20 by default).'),
    cursor: Cursor.optional(),
  }),
  readOnly: true,
  run: async (a, ctx) => {
    const offset = offsetOf(a.cursor);
    const limit = a.limit ?? 20;
    const [{ found }] = await runAsPublic(
      ctx.sql,
      (tx) =>
        tx<{ found: { items: Record<string, unknown>[]; more: boolean } | null }[]>`
        select plaudit.public_search_products(${a.business}, ${a.query ?? null}, ${offset}, ${limit}) as found`,
    );
    if (!found) return errorResult(BUSINESS_NOT_FOUND);
    return dataResult({ products: found.items, next_cursor: found.more ? cursorOf(offset + limit) : null });
  },
});

const getTransparency = tool({
  name: 'get_transparency',
  title: "A business's transparency report",
  description:
    "How the business's reviews are collected, verified, published, hidden and ordered, every figure counted from the data (the public transparency report).",
  input: z.object({ business: Business }),
  readOnly: true,
  run: async ({ business }, ctx) => routeResult(await ctx.caller.call('GET', `/public/transparency/${path(business)}`)),
});

const getSummary = tool({
  name: 'get_summary',
  title: "A summary of a business's or a product's reviews",
  description:
    "What the published reviews of a business (its own, `business`) or of one of its products (`product`; a product in a group answers for its whole group) say, as the public summary route answers it: `sentences`, each with its `sentiment` and the `review_ids` of every review that supports it (`count` of them; fetch them with search_reviews), and `topics` with their mentions. The sentences are reviewers' own words (or phrased from them). Not found below 5 published reviews.",
  input: z.object({ business: Business, product: Product.optional() }),
  readOnly: true,
  run: async ({ business, product }, ctx) =>
    routeResult(
      await ctx.caller.call(
        'GET',
        product === undefined
          ? `/public/summaries/${path(business)}`
          : `/public/products/${path(business, product)}/summary`,
      ),
    ),
});

/** A public question as a tool answers it, field by field: never an e-mail address, nothing else. */
function questionOf(q: any) {
  return {
    id: q.id,
    question: q.question,
    asker_name: q.asker_name,
    created_at: q.created_at,
    answers: (q.answers ?? []).map((a: any) => ({
      id: a.id,
      content: a.content,
      author: a.author,
      author_name: a.author_name,
      created_at: a.created_at,
      helpful_count: a.helpful_count,
    })),
  };
}

const listQuestions = tool({
  name: 'list_questions',
  title: "Shoppers' questions and their answers",
  description:
    'The published questions about a business (its slug as `business`), or about one of its products (`product`), the most recently answered first, each with its answers (`author`: `business`, or `verified_buyer` for a customer whose order held the product); in windows of up to 20 with a `next_cursor`.',
  input: z.object({
    business: Business,
    product: Product.optional(),
    limit: z.number().int().min(1).max(20).optional().describe('How many questions, 1 to 20 (10 by default).'),
    cursor: Cursor.optional(),
  }),
  readOnly: true,
  run: async (a, ctx) => {
    const limit = a.limit ?? 10;
    const offset = offsetOf(a.cursor);
    if (offset % limit !== 0) throw invalidArguments('cursor: give the limit the cursor was made with');
    const page = offset / limit + 1;
    const where = a.product === undefined
      ? `/public/questions/${path(a.business)}`
      : `/public/products/${path(a.business, a.product)}/questions`;
    return routeResult(await ctx.caller.call('GET', `${where}?page=${page}&limit=${limit}`), (body) => ({
      questions: body.data.map(questionOf),
      next_cursor: body.meta.totalPages > page ? cursorOf(offset + limit) : null,
    }));
  },
});

/** The tools anyone may call. */
export const PUBLIC_TOOLS = [getRating, searchReviews, listProducts, listQuestions, getTransparency, getSummary];
