// A visitor's helpful vote and report from the public pages, without JavaScript: the review's
// "Helpful (n)" button is a form POSTed to /p/:slug/reviews/:id/helpful, which counts the vote
// (core/db/shopper-signals.ts, as the API's route does) and redirects back to the list it came from;
// its "Report" link opens /p/:slug/reviews/:id/report, a form that POSTs to itself and thanks the
// visitor. Both are limited per address; the list page they return to is the cached public page.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { signalCaller } from '../middleware/rate-limit/index.ts';
import {
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  type ReportReason,
  reportReview,
  type SignalOutcome,
  voteHelpful,
} from '../../core/db/shopper-signals.ts';
import { markup } from './html.ts';
import { formValues, privatePage } from './shared.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reasons as a visitor reads them, in the order the form offers them. */
const REASON_WORDS: Record<ReportReason, string> = {
  spam: 'Spam or advertising',
  offensive: 'Offensive or hateful',
  personal_data: 'Shares personal data',
  fake: 'Fake: not a real customer',
  conflict_of_interest: 'Written by someone with a stake in the business',
  other: 'Something else',
};

/**
 * Where to go back to: the list page the visitor came from, when it is one of this slug's public
 * pages (the profile or a product's), without an earlier vote's `helpful`; else the profile page.
 */
export function backTo(slug: string, back: string | undefined): string {
  const home = `/p/${encodeURIComponent(slug)}`;
  if (!back || back.length > 2000) return home;
  let url: URL;
  try {
    url = new URL(back, 'http://page.invalid');
  } catch {
    return home;
  }
  if (
    url.origin !== 'http://page.invalid' || !(url.pathname === home || url.pathname.startsWith(`${home}/products/`))
  ) {
    return home;
  }
  url.searchParams.delete('helpful');
  return `${url.pathname}${url.search}`;
}

/** The limit's headers and the 429 or 404 page an outcome calls for; null when it went through. */
function refusal(c: Context<AppEnv>, outcome: SignalOutcome, back: string): Response | null {
  const reset = Number(outcome.rate_reset);
  c.header('X-RateLimit-Limit', String(c.var.config.submitRateLimitPerMinute));
  c.header('X-RateLimit-Remaining', String(outcome.rate_remaining));
  c.header('X-RateLimit-Reset', String(reset));
  if (!outcome.rate_allowed) {
    c.header('Retry-After', String(Math.max(1, reset - Math.floor(Date.now() / 1000))));
    return said(
      c,
      429,
      'Too many at once',
      'Too many votes or reports came from your network just now. Wait a minute, then try again.',
      back,
    );
  }
  if (!outcome.published) {
    return said(c, 404, 'Review not found', 'This review is not published here any more.', back);
  }
  return null;
}

/** A short page that says one thing, with the way back to the reviews. */
function said(c: Context<AppEnv>, status: ContentfulStatusCode, title: string, text: string, back: string) {
  return privatePage(
    c,
    status,
    title,
    markup`<h1>${title}</h1><p role="status">${text}</p><p><a href="${back}">← Back to the reviews</a></p>`,
  );
}

/** The report form, with the reason's error when one was sent without a valid reason. */
function reportForm(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  back: string,
  { reason, details, errors = {} }: {
    reason?: string;
    details?: string;
    errors?: { reason?: string; details?: string };
  } = {},
) {
  const options = REPORT_REASONS.map((r) =>
    markup`<label class="check"><input type="radio" name="reason" value="${r}"${reason === r ? markup` checked` : ''}${
      errors.reason ? markup` aria-describedby="reason-error"` : ''
    } required> ${REASON_WORDS[r]}</label>`
  );
  return privatePage(
    c,
    status,
    'Report a review',
    markup`<h1>Report a review</h1>
<p>Tell the business what is wrong with this review. Your report goes to the business only: it does not hide the review by itself, and your address is not kept.</p>
<form method="post">
<input type="hidden" name="back" value="${back}">
<fieldset class="field"><legend>What is wrong with it?</legend>
${errors.reason ? markup`<p class="error" id="reason-error">${errors.reason}</p>` : ''}${options}
</fieldset>
<div class="field"><label for="details">Details <span class="hint">(optional, up to ${REPORT_DETAILS_MAX} characters)</span></label>
<textarea id="details" name="details" maxlength="${REPORT_DETAILS_MAX}"${
      errors.details ? markup` aria-invalid="true" aria-describedby="details-error"` : ''
    }>${details ?? ''}</textarea>${
      errors.details ? markup`<p class="error" id="details-error">${errors.details}</p>` : ''
    }</div>
<button type="submit">Send report</button>
</form>
<p><a href="${back}">← Back to the reviews</a></p>`,
  );
}

export function reviewSignalPages() {
  const app = new Hono<AppEnv>();

  app.post('/p/:slug/reviews/:reviewId/helpful', async (c) => {
    const slug = c.req.param('slug');
    const reviewId = c.req.param('reviewId');
    const back = backTo(slug, (await formValues(c)).back);
    if (!UUID.test(reviewId)) return said(c, 404, 'Review not found', 'This review is not published here.', back);
    const outcome = await voteHelpful(c.var.sql, signalCaller('helpful', c), slug, reviewId);
    const refused = refusal(c, outcome, back);
    if (refused) return refused;
    // Back to the list, which thanks the visitor under the review (a URL of its own: no stale copy).
    const target = `${back}${back.includes('?') ? '&' : '?'}helpful=${reviewId.toLowerCase()}#review-${reviewId}`;
    c.header('Cache-Control', 'no-store');
    return c.redirect(target, 303);
  });

  app.get('/p/:slug/reviews/:reviewId/report', (c) => {
    const back = backTo(c.req.param('slug'), c.req.query('back'));
    if (!UUID.test(c.req.param('reviewId'))) {
      return said(c, 404, 'Review not found', 'This review is not published here.', back);
    }
    return reportForm(c, 200, back);
  });

  app.post('/p/:slug/reviews/:reviewId/report', async (c) => {
    const slug = c.req.param('slug');
    const reviewId = c.req.param('reviewId');
    const values = await formValues(c);
    const back = backTo(slug, values.back);
    if (!UUID.test(reviewId)) return said(c, 404, 'Review not found', 'This review is not published here.', back);
    const reason = values.reason as ReportReason;
    const details = (values.details ?? '').trim();
    if (!REPORT_REASONS.includes(reason)) {
      return reportForm(c, 422, back, { details, errors: { reason: 'Choose what is wrong with the review.' } });
    }
    if (details.length > REPORT_DETAILS_MAX) {
      const tooLong = `Keep the details to ${REPORT_DETAILS_MAX} characters.`;
      return reportForm(c, 422, back, { reason, details, errors: { details: tooLong } });
    }
    const outcome = await reportReview(c.var.sql, signalCaller('report', c), slug, reviewId, {
      reason,
      details: details || null,
    });
    const refused = refusal(c, outcome, back);
    if (refused) return refused;
    return said(
      c,
      200,
      'Thank you for your report',
      'The business will look at the review. A report does not hide a review by itself.',
      back,
    );
  });

  return app;
}
