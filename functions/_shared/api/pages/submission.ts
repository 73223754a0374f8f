// What follows a review sent from a hosted page (the form, /forms/:formId, and a review request's
// landing page, /r/:token): the thank-you page, or the form again with what went wrong. Both
// submit through the same SQL as POST /api/v1/reviews, which answers one row.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { refusalInRow, refusalOf } from '../http/db-errors.ts';
import type { SubmissionAnswer } from '../../core/db/review-submission.ts';
import { setRateLimitHeaders } from '../middleware/rate-limit/index.ts';
import { safeLink } from '../../core/html.ts';
import { markup } from './html.ts';
import { addMediaSection, MEDIA_STYLE } from './media-upload.ts';
import { errorFromDatabase, type Errors, type FieldDefinition } from './review-form.ts';
import { message, privatePage } from './shared.ts';

/** What a submission from a page answers (core/db/review-submission.ts), and the upload token it holds. */
export type SubmitRow = SubmissionAnswer & {
  /** The review's upload token, when the page issued one with the review. */
  upload_token?: string | null;
};

/** The page of a form that does not exist or no longer accepts reviews. */
export function formUnavailable(c: Context<AppEnv>, orgName: string | null | undefined, privateLink: boolean) {
  return message(
    c,
    404,
    'This form is not available',
    'The form does not exist or no longer accepts reviews.',
    orgName,
    privateLink,
  );
}

/** The organization a submission was for: its name, and where its thank-you page leads back to. */
export interface SubmittedTo {
  name: string;
  /** The website it shows (its profile's, else its own): linked when it is an http(s) URL. */
  website: string | null;
  /** Its public profile's slug, when the profile is enabled: the link when there is no website. */
  profileSlug: string | null;
}

/** The way back from the thank-you page: the business's website, else its profile page, else none. */
function wayBack(org: SubmittedTo) {
  const website = safeLink(org.website);
  if (website) {
    return markup`<p><a class="button" href="${website}" rel="noopener">Back to ${org.name}</a></p>`;
  }
  if (org.profileSlug) {
    return markup`<p><a class="button" href="/p/${
      encodeURIComponent(org.profileSlug)
    }">See ${org.name}'s reviews</a></p>`;
  }
  return '';
}

function thanks(c: Context<AppEnv>, org: SubmittedTo, row: SubmitRow, privateLink: boolean) {
  const next = row.verification_status === 'pending'
    ? 'We sent you an e-mail: open its link to confirm your review. Until then it is not published.'
    : 'Your review has been received.';
  const nonce = row.upload_token && row.id ? scriptNonce() : undefined;
  return privatePage(
    c,
    201,
    'Thank you for your review',
    markup`<p class="org">${org.name}</p>
<h1 tabindex="-1" autofocus>Thank you for your review</h1>
<p class="notice" role="status">${next}</p>
${nonce ? addMediaSection(row.id!, row.upload_token!, nonce) : ''}${wayBack(org)}`,
    { privateLink, style: nonce ? MEDIA_STYLE : undefined, scriptNonce: nonce },
  );
}

/** A fresh nonce for one page's script. */
function scriptNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
}

/**
 * Outcome of a submission: the thank-you page (or what `accepted` answers instead), or the form
 * again with the errors.
 */
export function afterSubmit(
  c: Context<AppEnv>,
  row: SubmitRow,
  rerender: (errors: Errors, status: ContentfulStatusCode) => Response,
  fields: FieldDefinition[],
  org: SubmittedTo,
  privateLink: boolean,
  accepted?: () => Response,
) {
  setRateLimitHeaders(c, {
    limit: c.var.config.submitRateLimitPerMinute,
    remaining: row.rate_remaining,
    reset: Number(row.rate_reset),
    allowed: row.rate_allowed,
  });
  if (!row.rate_allowed) {
    c.header('Retry-After', String(Math.max(1, Number(row.rate_reset) - Math.floor(Date.now() / 1000))));
    return rerender({
      _form: 'Too many reviews were sent from your network just now. Wait a minute, then send the form again.',
    }, 429);
  }
  const refused = refusalInRow(row);
  if (refused) {
    // What the API would answer (http/db-errors.ts), in the page's words.
    const refusal = refusalOf(refused);
    if (refusal?.status === 404) return formUnavailable(c, org.name, privateLink);
    if (refusal?.status === 409) return rerender({ _form: 'You already sent this review. Thank you!' }, 409);
    return rerender(
      errorFromDatabase(refusal?.message ?? row.error_message ?? 'Your review could not be saved.', fields),
      422,
    );
  }
  return accepted ? accepted() : thanks(c, org, row, privateLink);
}
