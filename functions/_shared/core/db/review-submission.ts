// A reviewer's review on its way into the database: plaudit.review_submission, the one input of
// plaudit.submit_review (and plaudit.submit_requested_review), built by its fields' names from one
// object, the same for POST /api/v1/reviews, the hosted form and a review request's page; and the
// statement each sends, one per submission, the review's upload token issued in it.
import type postgres from 'postgres';
import { detectLanguage } from '../language/detect.ts';
import { asJson, type Sql, type Tx } from './client.ts';
import { runAsPublic } from './roles.ts';

/**
 * plaudit.review_submission, field for field (supabase/changes/…_review_submission.sql): a field
 * this type names and the composite does not would be dropped on the way (tests/api/reviews.test.ts
 * compares the two).
 */
export interface ReviewSubmission {
  /** The form; a review request's page leaves it null (the request names its form). */
  form_id: string | null;
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  reviewer_email: string;
  /** Answers to the form's custom fields, by key; null for none. */
  custom_fields: Record<string, unknown> | null;
  order_id: string | null;
  /** A bot filled the trap field: the answer looks as usual and nothing is stored. */
  honeypot: boolean;
  product_id: string | null;
  product_external_id: string | null;
  /** The language it is written in (ISO 639-1), told from its title and text here (record below). */
  language: string | null;
}

/** A review as its callers build it: its language is told on the way in, never taken from them. */
export type ReviewInput = Omit<ReviewSubmission, 'language'>;

/** What a submission is sent with that is not the review. */
export interface SubmissionContext {
  /** The client's rate-limit bucket, and how many submissions it may send a minute. */
  rateBucket: string;
  rateLimit: number;
  /** The base of the e-mailed verification link (the service's public URL). */
  linkBase: string;
  /** Whether the review's language is told from its text (else it is stored as null). */
  detectLanguages: boolean;
}

/** What plaudit.submit_review and plaudit.submit_requested_review answer, and the upload token's expiry. */
export interface SubmissionAnswer {
  rate_allowed: boolean;
  rate_remaining: number;
  rate_reset: string;
  /** The refusal as the database raised it (http/db-errors.ts says what it means to a client). */
  error_code: string | null;
  error_message: string | null;
  error_constraint: string | null;
  error_table: string | null;
  id: string | null;
  verification_status: string | null;
  /** When the review's upload token expires; null when none was issued (a bot's unstored review). */
  media_expires_at: Date | null;
}

/**
 * The review as the composite, in SQL: by name, so that no caller depends on the fields' order;
 * with the language its title and text are written in.
 */
function record(tx: Tx, input: ReviewInput, detect: boolean) {
  const review: ReviewSubmission = { ...input, language: detect ? detectLanguage(input.title, input.content) : null };
  return tx`jsonb_populate_record(null::plaudit.review_submission, ${tx.json(asJson(review))})`;
}

/**
 * Submits a review as the public, in one statement (plaudit.submit_review), and issues its upload
 * token (`uploadTokenHash`) in the same statement. Answers the row, with the stored review as the
 * organization's Review (`review`).
 */
export async function submitReview(
  sql: Sql,
  review: ReviewInput,
  context: SubmissionContext,
  uploadTokenHash: Uint8Array,
): Promise<SubmissionAnswer & { review: string | null }> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<(SubmissionAnswer & { review: string | null })[]>`
      select s.rate_allowed, s.rate_remaining, s.rate_reset, s.error_code, s.error_message, s.error_constraint,
             s.error_table, s.id, s.verification_status, s.review,
             plaudit.issue_media_upload_token(s.id, ${uploadTokenHash}) as media_expires_at
        from plaudit.submit_review(${
      record(tx, review, context.detectLanguages)
    }, ${context.rateBucket}, ${context.rateLimit},
                                   ${context.linkBase}) s`, { onPrimary: true });
  return row;
}

/**
 * Submits a review through a review request's link (plaudit.submit_requested_review), in one
 * statement, issuing its upload token there when one is given.
 */
export async function submitRequestedReview(
  sql: Sql,
  token: string,
  review: ReviewInput,
  context: SubmissionContext,
  uploadTokenHash: Uint8Array | null,
): Promise<SubmissionAnswer> {
  const [row] = await runAsPublic(sql, (tx) => {
    const issued: postgres.PendingQuery<postgres.Row[]> = uploadTokenHash
      ? tx`plaudit.issue_media_upload_token(s.id, ${uploadTokenHash})`
      : tx`null::timestamptz`;
    return tx<SubmissionAnswer[]>`
      select s.rate_allowed, s.rate_remaining, s.rate_reset, s.error_code, s.error_message, s.error_constraint,
             s.error_table, s.id, s.verification_status, ${issued} as media_expires_at
        from plaudit.submit_requested_review(${token}, ${
      record(tx, review, context.detectLanguages)
    }, ${context.rateBucket},
                                             ${context.rateLimit}, ${context.linkBase}) s`;
  }, { onPrimary: true });
  return row;
}
