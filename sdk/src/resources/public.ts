import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type {
  AnswerHelpfulCount,
  HelpfulCount,
  ProductJsonLd,
  PublicEmbed,
  PublicProduct,
  PublicProductRatings,
  PublicProfile,
  PublicQuestion,
  PublicReview,
  QueryOf,
  QuestionInput,
  ReportInput,
  ResponseOf,
  ReviewSummary,
  Transparency,
} from '../types.ts';

const EMBED = '/api/v1/public/embed/{slug}';
const REVIEWS = '/api/v1/public/reviews/{slug}';
const PROFILE = '/api/v1/public/profiles/{slug}';
const PROFILE_REVIEWS = '/api/v1/public/profiles/{slug}/reviews';
const VERIFICATION = '/api/v1/public/verifications/{token}';
const PRODUCT = '/api/v1/public/products/{slug}/{externalId}';
const PRODUCT_REVIEWS = '/api/v1/public/products/{slug}/{externalId}/reviews';
const PRODUCT_RATINGS = '/api/v1/public/products/{slug}/ratings';
const PRODUCT_JSONLD = '/api/v1/public/products/{slug}/{externalId}/jsonld';
const HELPFUL = '/api/v1/public/reviews/{slug}/{reviewId}/helpful';
const REPORT = '/api/v1/public/reviews/{slug}/{reviewId}/reports';
const TRANSPARENCY = '/api/v1/public/transparency/{slug}';
const SUMMARY = '/api/v1/public/summaries/{slug}';
const PRODUCT_SUMMARY = '/api/v1/public/products/{slug}/{externalId}/summary';
const QUESTIONS = '/api/v1/public/questions/{slug}';
const PRODUCT_QUESTIONS = '/api/v1/public/products/{slug}/{externalId}/questions';
const ANSWER_HELPFUL = '/api/v1/public/questions/{slug}/{questionId}/answers/{answerId}/helpful';

/** What anyone may read about a business, by its slug. No API key is sent. */
export class Public extends Resource {
  /** The widget's settings, the business name, its rating and first reviews. */
  embed(slug: string, opts?: RequestOptions): ApiPromise<PublicEmbed> {
    return this.call('get', EMBED, { slug }, { auth: false }, opts);
  }

  /** The widget's reviews (rated at least the embed's `min_rating`), newest first. */
  reviews(slug: string, query?: QueryOf<typeof REVIEWS>, opts?: RequestOptions): PageRequest<PublicReview> {
    return this.paged(REVIEWS, { slug }, query, opts, false);
  }

  /** The public profile with `average_rating`, `review_count` and `rating_distribution`. */
  profile(slug: string, opts?: RequestOptions): ApiPromise<PublicProfile> {
    return this.call('get', PROFILE, { slug }, { auth: false }, opts);
  }

  /** Every public review of the business, newest first. */
  profileReviews(
    slug: string,
    query?: QueryOf<typeof PROFILE_REVIEWS>,
    opts?: RequestOptions,
  ): PageRequest<PublicReview> {
    return this.paged(PROFILE_REVIEWS, { slug }, query, opts, false);
  }

  /** A product's summary (over its group): its rating, count and distribution. */
  product(slug: string, externalId: string, opts?: RequestOptions): ApiPromise<PublicProduct> {
    return this.call('get', PRODUCT, { slug, externalId }, { auth: false }, opts);
  }

  /** A product's public reviews (over its group), sorted and filtered as `query` says. */
  productReviews(
    slug: string,
    externalId: string,
    query?: QueryOf<typeof PRODUCT_REVIEWS>,
    opts?: RequestOptions,
  ): PageRequest<PublicReview> {
    return this.paged(PRODUCT_REVIEWS, { slug, externalId }, query, opts, false);
  }

  /** The ratings of up to 100 products by external id, in the order given (unknown ones left out). */
  productRatings(
    slug: string,
    externalIds: readonly string[],
    opts?: RequestOptions,
  ): ApiPromise<PublicProductRatings> {
    return this.call('get', PRODUCT_RATINGS, { slug }, { auth: false, query: { ids: externalIds.join(',') } }, opts);
  }

  /**
   * A product's schema.org JSON-LD, for shops that render on the server: put
   * `JSON.stringify(ld)` in a `<script type="application/ld+json">`, escaping `<` as `\u003c`.
   */
  productJsonLd(slug: string, externalId: string, opts?: RequestOptions): ApiPromise<ProductJsonLd> {
    return this.call('get', PRODUCT_JSONLD, { slug, externalId }, { auth: false }, opts);
  }

  /**
   * A visitor finds a published review helpful: once per visitor (its address and browser), a
   * repeat changes nothing. Call it from the visitor's browser: from a server, every vote is the server's.
   */
  voteHelpful(slug: string, reviewId: string, opts?: RequestOptions): ApiPromise<HelpfulCount> {
    return this.call('post', HELPFUL, { slug, reviewId }, { auth: false }, opts);
  }

  /** The questions about the business, the most recently answered first, with their answers. */
  questions(slug: string, query?: QueryOf<typeof QUESTIONS>, opts?: RequestOptions): PageRequest<PublicQuestion> {
    return this.paged(QUESTIONS, { slug }, query, opts, false);
  }

  /** A product's questions, the most recently answered first, with their answers. */
  productQuestions(
    slug: string,
    externalId: string,
    query?: QueryOf<typeof PRODUCT_QUESTIONS>,
    opts?: RequestOptions,
  ): PageRequest<PublicQuestion> {
    return this.paged(PRODUCT_QUESTIONS, { slug, externalId }, query, opts, false);
  }

  /** A shopper asks about a product or the business (202); it shows once they confirm by e-mail. */
  ask(slug: string, body: QuestionInput, opts?: RequestOptions): ApiPromise<{ status: 'pending_confirmation' }> {
    return this.call('post', QUESTIONS, { slug }, { body, auth: false }, opts);
  }

  /** A visitor finds an answer helpful, once per visitor; call it from the visitor's browser. */
  voteAnswerHelpful(
    slug: string,
    questionId: string,
    answerId: string,
    opts?: RequestOptions,
  ): ApiPromise<AnswerHelpfulCount> {
    return this.call('post', ANSWER_HELPFUL, { slug, questionId, answerId }, { auth: false }, opts);
  }

  /** A visitor reports a published review to the business (202); it hides nothing by itself. */
  report(slug: string, reviewId: string, body: ReportInput, opts?: RequestOptions): ApiPromise<void> {
    return this.call('post', REPORT, { slug, reviewId }, { body, auth: false }, opts) as ApiPromise<never>;
  }

  /**
   * The business's transparency report: reviews received and published, by verification method,
   * hides by month and reason, the shares verified, incentivized and imported, how lists are
   * ordered, whether every review is published, and the moderation chain head.
   */
  transparency(slug: string, opts?: RequestOptions): ApiPromise<Transparency> {
    return this.call('get', TRANSPARENCY, { slug }, { auth: false }, opts);
  }

  /**
   * The summary of the business's own reviews (404 below 5 published reviews): sentences with their
   * tone, the reviews that support each and how many do, and topics with their mentions.
   */
  summary(slug: string, opts?: RequestOptions): ApiPromise<ReviewSummary> {
    return this.call('get', SUMMARY, { slug }, { auth: false }, opts);
  }

  /** The summary of a product's reviews, over its group (404 below 5 published reviews). */
  productSummary(slug: string, externalId: string, opts?: RequestOptions): ApiPromise<ReviewSummary> {
    return this.call('get', PRODUCT_SUMMARY, { slug, externalId }, { auth: false }, opts);
  }

  /**
   * Verifies a review with the token of its verification e-mail, for a landing page of your own:
   * 409 when already used or nothing to verify, 410 when expired, 404 when not valid.
   */
  verify(token: string, opts?: RequestOptions): ApiPromise<ResponseOf<typeof VERIFICATION, 'post'>> {
    return this.call('post', VERIFICATION, { token }, { auth: false }, opts);
  }
}
