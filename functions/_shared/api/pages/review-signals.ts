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
  LEGAL_GROUND_MAX,
  noticeGaps,
  REPORT_DETAILS_MAX,
  REPORT_KINDS,
  REPORT_REASONS,
  type ReportedReview,
  reportedReview,
  type ReportKind,
  type ReportReason,
  reportReview,
  type ReportSubmission,
  type SignalOutcome,
  voteHelpful,
} from '../../core/db/shopper-signals.ts';
import { markup, raw } from './html.ts';
import { stars } from './review-list.ts';
import { formValues, privatePage } from './shared.ts';
import { DAY } from '../../core/day.ts';

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

/** The longest part of a review's text the report form quotes. */
const EXCERPT_MAX = 300;

/** Up to EXCERPT_MAX characters of a text, cut at a word with an ellipsis when longer. */
export function excerpt(text: string): string {
  const chars = [...text.trim()];
  if (chars.length <= EXCERPT_MAX) return chars.join('');
  const cut = chars.slice(0, EXCERPT_MAX).join('');
  const word = cut.replace(/\s+\S*$/, '');
  return `${word.length > EXCERPT_MAX / 2 ? word : cut}…`;
}

/** The review reported, quoted above the form so the visitor sees what they are reporting. */
function quotedReview(r: ReportedReview) {
  return markup`<figure class="reported" aria-labelledby="reported-title">
<figcaption id="reported-title">The review you are reporting</figcaption>
<blockquote>
<div class="stars-row" role="img" aria-label="Rated ${r.rating} out of 5">${stars(r.rating)}</div>
${r.title ? markup`<p class="reported-title"><strong>${r.title}</strong></p>` : ''}<p class="reported-text">${
    excerpt(r.content)
  }</p>
</blockquote>
<p class="reported-by">— ${r.reviewer_name}, ${DAY.format(new Date(r.created_at))}</p>
</figure>`;
}

const REPORT_STYLE = raw(`
.reported{margin:0 0 1.5rem;padding:1rem;border:1px solid #d0d7de;border-radius:.5rem;background:#f6f8fa}
.reported figcaption{font-weight:600;margin-bottom:.5rem}
.reported blockquote{margin:0}
.reported p{margin:.25rem 0;overflow-wrap:anywhere;white-space:pre-line}
.reported .stars-row{color:#7d4e00;font-size:1.25rem;letter-spacing:.05em}
.reported-by{color:#57606a}
`);

/** What the visitor typed into the report form, to show it again with the errors. */
interface ReportFormState {
  reason?: string;
  details?: string;
  kind?: string;
  legal_ground?: string;
  email?: string;
  good_faith?: boolean;
  errors?: Partial<Record<'reason' | 'details' | 'kind' | 'legal_ground' | 'email' | 'good_faith', string>>;
}

const KIND_WORDS: Record<ReportKind, string> = {
  policy: "It breaks the business's review rules",
  illegal: 'It is illegal (a notice under the EU Digital Services Act)',
};

/** A field's error paragraph and the attributes that tie its control to it. */
function fieldError(errors: ReportFormState['errors'], name: keyof NonNullable<ReportFormState['errors']>) {
  const text = errors?.[name];
  return {
    attrs: text ? markup` aria-invalid="true" aria-describedby="${name}-error"` : '',
    note: text ? markup`<p class="error" id="${name}-error">${text}</p>` : '',
  };
}

/** The report form under the review it is about, with each field's error when one was sent wrong. */
function reportForm(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  back: string,
  review: ReportedReview,
  state: ReportFormState = {},
) {
  const { reason, details, kind = 'policy', legal_ground, email, good_faith, errors = {} } = state;
  const options = REPORT_REASONS.map((r) =>
    markup`<label class="check"><input type="radio" name="reason" value="${r}"${reason === r ? markup` checked` : ''}${
      errors.reason ? markup` aria-describedby="reason-error"` : ''
    } required> ${REASON_WORDS[r]}</label>`
  );
  const kinds = REPORT_KINDS.map((k) =>
    markup`<label class="check"><input type="radio" name="kind" value="${k}"${kind === k ? markup` checked` : ''}> ${
      KIND_WORDS[k]
    }</label>`
  );
  const ground = fieldError(errors, 'legal_ground');
  const mail = fieldError(errors, 'email');
  const faith = fieldError(errors, 'good_faith');
  const det = fieldError(errors, 'details');
  return privatePage(
    c,
    status,
    'Report a review',
    markup`<h1>Report a review</h1>
${quotedReview(review)}
<p>Tell the business what is wrong with this review. Your report goes to the business only: it does not hide the review by itself, and your network address is not kept.</p>
<form method="post">
<input type="hidden" name="back" value="${back}">
<fieldset class="field"><legend>Is it against the rules, or illegal?</legend>
${kinds}
</fieldset>
<div class="field"><label for="legal_ground">Which law does it break, and how? <span class="hint">(required if illegal, up to ${LEGAL_GROUND_MAX} characters)</span></label>
<input id="legal_ground" name="legal_ground" type="text" maxlength="${LEGAL_GROUND_MAX}" value="${
      legal_ground ?? ''
    }"${ground.attrs}>${ground.note}</div>
<fieldset class="field"><legend>What is wrong with it?</legend>
${errors.reason ? markup`<p class="error" id="reason-error">${errors.reason}</p>` : ''}${options}
</fieldset>
<div class="field"><label for="details">Details <span class="hint">(optional, up to ${REPORT_DETAILS_MAX} characters)</span></label>
<textarea id="details" name="details" maxlength="${REPORT_DETAILS_MAX}"${det.attrs}>${
      details ?? ''
    }</textarea>${det.note}</div>
<div class="field"><label for="email">Your e-mail address <span class="hint">(optional: for a confirmation now and the decision later; never shown to the reviewer or published)</span></label>
<input id="email" name="email" type="email" maxlength="320" autocomplete="email" value="${
      email ?? ''
    }"${mail.attrs}>${mail.note}</div>
<div class="field"><label class="check"><input type="checkbox" name="good_faith" value="yes"${
      good_faith ? markup` checked` : ''
    }${faith.attrs}> I confirm that what I report is accurate and complete to the best of my knowledge, and that I report it in good faith (required if illegal).</label>${faith.note}</div>
<button type="submit">Send report</button>
</form>
<p><a href="${back}">← Back to the reviews</a></p>`,
    { style: REPORT_STYLE },
  );
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The report the form's values make, or the form's state with the errors to show. */
function readReportForm(values: Record<string, string | undefined>): ReportSubmission | ReportFormState {
  const state: ReportFormState = {
    reason: values.reason,
    details: (values.details ?? '').trim(),
    kind: REPORT_KINDS.includes(values.kind as ReportKind) ? values.kind : 'policy',
    legal_ground: (values.legal_ground ?? '').trim(),
    email: (values.email ?? '').trim(),
    good_faith: values.good_faith === 'yes',
  };
  const errors: NonNullable<ReportFormState['errors']> = {};
  if (!REPORT_REASONS.includes(state.reason as ReportReason)) errors.reason = 'Choose what is wrong with the review.';
  if (state.details!.length > REPORT_DETAILS_MAX) {
    errors.details = `Keep the details to ${REPORT_DETAILS_MAX} characters.`;
  }
  if (state.legal_ground!.length > LEGAL_GROUND_MAX) {
    errors.legal_ground = `Keep the legal ground to ${LEGAL_GROUND_MAX} characters.`;
  }
  if (state.email && (state.email.length > 320 || !EMAIL.test(state.email))) {
    errors.email = 'Enter an e-mail address, or leave it empty.';
  }
  for (const gap of noticeGaps({ ...state, kind: state.kind as ReportKind })) {
    errors[gap] ??= gap === 'legal_ground'
      ? 'Name the law the review breaks, and how.'
      : 'Confirm that you report this in good faith.';
  }
  if (Object.keys(errors).length > 0) return { ...state, errors };
  return {
    reason: state.reason as ReportReason,
    details: state.details || null,
    kind: state.kind as ReportKind,
    legal_ground: state.legal_ground || null,
    email: state.email || null,
    good_faith: state.good_faith || null,
  };
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

  app.get('/p/:slug/reviews/:reviewId/report', async (c) => {
    const slug = c.req.param('slug');
    const reviewId = c.req.param('reviewId');
    const back = backTo(slug, c.req.query('back'));
    const review = UUID.test(reviewId) ? await reportedReview(c.var.sql, slug, reviewId) : null;
    if (!review) return said(c, 404, 'Review not found', 'This review is not published here.', back);
    return reportForm(c, 200, back, review);
  });

  app.post('/p/:slug/reviews/:reviewId/report', async (c) => {
    const slug = c.req.param('slug');
    const reviewId = c.req.param('reviewId');
    const values = await formValues(c);
    const back = backTo(slug, values.back);
    if (!UUID.test(reviewId)) return said(c, 404, 'Review not found', 'This review is not published here.', back);
    const read = readReportForm(values);
    if ('errors' in read) {
      // The form again, under the review, with what was typed.
      const review = await reportedReview(c.var.sql, slug, reviewId);
      if (!review) return said(c, 404, 'Review not found', 'This review is not published here any more.', back);
      return reportForm(c, 422, back, review, read);
    }
    const outcome = await reportReview(c.var.sql, signalCaller('report', c), slug, reviewId, read as ReportSubmission);
    const refused = refusal(c, outcome, back);
    if (refused) return refused;
    return said(
      c,
      200,
      'Thank you for your report',
      (read as ReportSubmission).email
        ? 'The business will look at the review, and you will get a confirmation by e-mail now and the decision later. A report does not hide a review by itself.'
        : 'The business will look at the review. A report does not hide a review by itself.',
      back,
    );
  });

  return app;
}
