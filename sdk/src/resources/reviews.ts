import { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { type MediaFile, mediaForm } from '../media-file.ts';
import { Resource } from '../resource.ts';
import type {
  ModerationEntry,
  ModerationInput,
  QueryOf,
  ReplyInput,
  ResponseOf,
  Review,
  ReviewListQuery,
  ReviewMedia,
  ReviewSubmission,
  Statement,
  SubmittedReview,
} from '../types.ts';

const REVIEWS = '/api/v1/organizations/{orgId}/reviews';
const REVIEW = '/api/v1/organizations/{orgId}/reviews/{id}';
const HISTORY = '/api/v1/organizations/{orgId}/reviews/{id}/moderation-history';
const KEY_REVIEWS = '/api/v1/reviews';
const CHAIN = '/api/v1/organizations/{orgId}/moderation-chain';

export class Reviews extends Resource {
  /** The organization's reviews, newest first; filters combine with AND. */
  list(query?: ReviewListQuery, opts?: RequestOptions): PageRequest<Review> {
    return this.paged(REVIEWS, {}, query, opts);
  }

  /**
   * The same list for the API key's own organization, without asking which one it is first
   * (`GET /api/v1/reviews`); the client's `organizationId` does not apply.
   */
  listForKey(query?: QueryOf<typeof KEY_REVIEWS>, opts?: RequestOptions): PageRequest<Review> {
    return this.paged(KEY_REVIEWS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('get', REVIEW, { id }, {}, opts);
  }

  /** Hides or unhides a review (`{ action: 'hide' | 'unhide', reason }`); 409 when it is already so. */
  moderate(id: string, body: ModerationInput, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('patch', `${REVIEW}/moderate`, { id }, { body }, opts);
  }

  /** Hides or shows one photo or video of a review (`{ action, reason }`); answers the review. */
  moderateMedia(reviewId: string, mediaId: string, body: ModerationInput, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('patch', `${REVIEW}/media/{mediaId}/moderate`, { id: reviewId, mediaId }, { body }, opts);
  }

  /** Writes the business's public reply to a review, or replaces it; answers the review with it. */
  reply(id: string, body: ReplyInput, opts?: RequestOptions): ApiPromise<Review> {
    return this.call('put', `${REVIEW}/reply`, { id }, { body }, opts);
  }

  /** Withdraws the reply to a review (404 when it has none); the review stays as it is. */
  withdrawReply(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', `${REVIEW}/reply`, { id }, {}, opts) as ApiPromise<never>;
  }

  /** The review's moderation trail, newest first. */
  moderationHistory(id: string, query?: QueryOf<typeof HISTORY>, opts?: RequestOptions): PageRequest<ModerationEntry> {
    return this.paged(HISTORY, { id }, query, opts);
  }

  /** The review's statements of reasons (EU DSA Art. 17), one per hide, newest first. */
  statements(id: string, opts?: RequestOptions): ApiPromise<{ data: Statement[] }> {
    return this.call('get', `${REVIEW}/statements`, { id }, {}, opts);
  }

  /** The moderation trail's head, and whether the trail verifies (optionally against a head kept earlier). */
  moderationChain(query?: QueryOf<typeof CHAIN>, opts?: RequestOptions): ApiPromise<ResponseOf<typeof CHAIN, 'get'>> {
    return this.call('get', CHAIN, {}, { query }, opts);
  }

  /**
   * Submits a review to a form. Public: no API key is sent. The answer's `media_upload.token`
   * lets `uploadMedia` add photos and videos to it for 24 hours.
   */
  submit(body: ReviewSubmission, opts?: RequestOptions): ApiPromise<SubmittedReview> {
    return this.call('post', '/api/v1/reviews', {}, { body, auth: false }, opts);
  }

  /**
   * Adds a photo (JPEG, PNG, WebP) or video (MP4, WebM) to a review: bytes (a Buffer), a Blob or
   * File, or a stream (a Node Readable, a ReadableStream). With `uploadToken` (the submission's
   * `media_upload.token`) no API key is sent; without, the key needs scope `write`. Answers the
   * stored item; the same file again answers the item it made.
   */
  uploadMedia(
    reviewId: string,
    file: MediaFile,
    opts: RequestOptions & { uploadToken?: string; filename?: string } = {},
  ): ApiPromise<ReviewMedia> {
    const { uploadToken, filename, ...rest } = opts;
    const headers = uploadToken ? { ...rest.headers, 'x-upload-token': uploadToken } : rest.headers;
    const sent = mediaForm(file, filename).then((form) =>
      this.call('post', '/api/v1/reviews/{id}/media', { id: reviewId }, { body: form, auth: !uploadToken }, {
        ...rest,
        headers,
      }).withResponse()
    );
    return new ApiPromise(sent);
  }
}
