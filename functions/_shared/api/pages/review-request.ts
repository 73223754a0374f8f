// The pages of a review request's e-mail (no API key; outside /api/v1):
//   GET/POST /r/:token                 the landing page (prefilled; completes the request); a form per
//                                      subject when the request names products (request-subjects.ts)
//   GET      /t/o/:token.gif           open pixel
//   GET      /t/c/:token?rating=N      click redirect (to the landing page, rating preselected)
//   GET/POST /unsubscribe/:token       unsubscribe page; POST is also the one-click List-Unsubscribe-Post
// Each runs one SQL function as plaudit_public (supabase/schemas/hosted_review_pages.sql);
// the review is submitted through plaudit.submit_requested_review.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { submissionContext } from '../middleware/rate-limit/index.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { markup } from './html.ts';
import {
  type Errors,
  type FieldDefinition,
  readSubmission,
  reviewForm,
  type Submission,
  type Values,
} from './review-form.ts';
import { formUnderCheck, formValues, invalidLink, message, privatePage, TOKEN } from './shared.ts';
import { policyUrl } from './review-policy.ts';
import { afterSubmit } from './submission.ts';
import { newUploadToken } from '../api-keys/upload-token.ts';
import { submitRequestedReview } from '../../core/db/review-submission.ts';
import {
  namesProducts,
  postedSubject,
  sectionId,
  type Subject,
  SUBJECTS_STYLE,
  subjectsPage,
  type SubjectsView,
} from './request-subjects.ts';

// A transparent 1×1 GIF.
const PIXEL = Uint8Array.from(
  atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  (ch) => ch.charCodeAt(0),
);

type LandingRow = {
  request_id: string;
  status: string;
  name: string;
  email: string;
  order_id: string | null;
  locale: string;
  form_id: string;
  form_name: string;
  form_active: boolean;
  verification_mode: string;
  custom_fields: FieldDefinition[];
  org_name: string;
  logo_url: string | null;
  website: string | null;
  profile_slug: string | null;
  /** Set with its subjects (loadSubjectsOf): a review of one would be held for a check now. */
  under_check?: boolean;
};

async function loadLanding(c: Context<AppEnv>, token: string) {
  if (!TOKEN.test(token)) return null;
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<LandingRow[]>`select * from plaudit.review_request_landing(${token})`,
    { onPrimary: true },
  );
  return row ?? null;
}

const loadSubjects = (c: Context<AppEnv>, token: string) =>
  runAsPublic(c.var.sql, (tx) => tx<Subject[]>`select * from plaudit.review_request_subjects(${token})`, {
    onPrimary: true,
  });

/** The request's subjects, and whether a review of one not reviewed yet would be held for a check now. */
async function loadSubjectsOf(c: Context<AppEnv>, token: string, r: LandingRow) {
  const subjects = await loadSubjects(c, token);
  const open = subjects.filter((s) => !s.reviewed).map((s) => s.product_external_id);
  r.under_check = open.length > 0 && await formUnderCheck(c, r.form_id, open);
  return subjects;
}

const formContext = (c: Context<AppEnv>, token: string, r: LandingRow) => ({
  action: `/r/${token}`,
  orgName: r.org_name,
  logoUrl: r.logo_url,
  invited: true,
  formName: r.form_name,
  verificationMode: r.verification_mode,
  customFields: r.custom_fields,
  askOrderId: r.verification_mode === 'purchase_proof' && !r.order_id,
  policyUrl: r.profile_slug ? policyUrl(c.var.config.publicUrl, r.profile_slug) : null,
  underCheck: r.under_check,
});

/** The organization as the thank-you page names it and leads back to it. */
const leadsBackTo = (r: LandingRow) => ({ name: r.org_name, website: r.website, profileSlug: r.profile_slug });

const heading = (r: LandingRow) => markup`How was your experience with ${r.org_name}, ${r.name}?`;

const landingPage = (
  c: Context<AppEnv>,
  token: string,
  r: LandingRow,
  values: Values,
  errors: Errors,
  status: ContentfulStatusCode,
) =>
  privatePage(
    c,
    status,
    `${Object.keys(errors).length ? 'Error: ' : ''}Review ${r.org_name}`,
    reviewForm(formContext(c, token, r), values, errors, heading(r)),
    { privateLink: true },
  );

/** The page of a request that names products: a form per subject, the one sent with its outcome. */
const subjectsLandingPage = (
  c: Context<AppEnv>,
  token: string,
  r: LandingRow,
  subjects: Subject[],
  status: ContentfulStatusCode,
  outcome: Pick<SubjectsView, 'posted' | 'alert'> = {},
) =>
  privatePage(
    c,
    status,
    `${status >= 400 ? 'Error: ' : ''}Review ${r.org_name}`,
    subjectsPage({
      form: formContext(c, token, r),
      heading: heading(r),
      email: r.email,
      name: r.name,
      subjects,
      ...outcome,
    }),
    { privateLink: true, style: SUBJECTS_STYLE },
  );

/**
 * The page of a request already answered or whose form is closed, or null when it is open. A
 * request that names products stays open until each of its subjects has its review.
 */
function landingClosed(c: Context<AppEnv>, r: LandingRow, subjects: Subject[]) {
  if (namesProducts(subjects)) {
    if (subjects.every((s) => s.reviewed)) {
      return message(
        c,
        200,
        'Thank you, your reviews are in',
        `You have reviewed each product and ${r.org_name}. Thank you!`,
        r.org_name,
      );
    }
  } else if (r.status === 'completed') {
    return message(
      c,
      200,
      'Thank you, your review is in',
      'You have already reviewed us for this request. Thank you!',
      r.org_name,
    );
  }
  if (!r.form_active) {
    return message(c, 410, 'This form is closed', 'This form no longer accepts reviews.', r.org_name);
  }
  return null;
}

/**
 * A review sent from the page, of the business or (product) of one the request names. A review
 * that ends on the thank-you page (`thanks`: the request names no product) gets its upload token
 * for photos and videos, issued in the same statement; the forms per product return to the page.
 */
async function submitRequested(
  c: Context<AppEnv>,
  token: string,
  submission: Submission,
  { product = null, thanks = false }: { product?: string | null; thanks?: boolean },
) {
  const upload = thanks ? newUploadToken() : null;
  const answer = await submitRequestedReview(
    c.var.sql,
    token,
    { ...submission, form_id: null, product_id: null, product_external_id: product },
    submissionContext(c),
    upload?.hash ?? null,
  );
  return { ...answer, upload_token: upload?.token ?? null };
}

export function reviewRequestPages() {
  const app = new Hono<AppEnv>();

  // ---- Landing page ----------------------------------------------------------------------------
  app.get('/r/:token', async (c) => {
    const token = c.req.param('token');
    const r = await loadLanding(c, token);
    if (!r) return invalidLink(c);
    // Opening the page is a click, unless the click redirect already counted it.
    if (c.req.query('c') !== '1' && c.req.method === 'GET') {
      await runAsPublic(c.var.sql, (tx) => tx`select plaudit.track_review_request(${token}, 'clicked')`, {
        onPrimary: true,
      });
    }
    const subjects = await loadSubjectsOf(c, token, r);
    const closed = landingClosed(c, r, subjects);
    if (closed) return closed;
    if (namesProducts(subjects)) return subjectsLandingPage(c, token, r, subjects, 200);
    const rating = /^[1-5]$/.test(c.req.query('rating') ?? '') ? c.req.query('rating')! : '';
    return landingPage(c, token, r, { rating, reviewer_name: r.name, reviewer_email: r.email }, {}, 200);
  });

  app.post('/r/:token', async (c) => {
    const token = c.req.param('token');
    const r = await loadLanding(c, token);
    if (!r) return invalidLink(c);
    const subjects = await loadSubjectsOf(c, token, r);
    const closed = landingClosed(c, r, subjects);
    if (closed) return closed;
    const values = await formValues(c);
    if (!namesProducts(subjects)) {
      const { submission, errors } = readSubmission(values, r.custom_fields);
      if (!submission) return landingPage(c, token, r, values, errors, 422);
      const row = await submitRequested(c, token, submission, { thanks: true });
      return afterSubmit(
        c,
        row,
        (errs, status) => landingPage(c, token, r, values, errs, status),
        r.custom_fields,
        leadsBackTo(r),
        true,
      );
    }
    // A form per subject: the one sent says which by its hidden `product` field.
    const index = postedSubject(subjects, values.product);
    if (index < 0) {
      return subjectsLandingPage(c, token, r, subjects, 422, {
        alert: 'This product is not part of your request: choose one of the forms below.',
      });
    }
    if (subjects[index].reviewed) {
      return subjectsLandingPage(c, token, r, subjects, 409, {
        alert: `Your review of ${subjects[index].name} is in already: each product takes one review.`,
      });
    }
    const rerender = (errors: Errors, status: ContentfulStatusCode) =>
      subjectsLandingPage(c, token, r, subjects, status, { posted: { index, values, errors } });
    const { submission, errors } = readSubmission(values, r.custom_fields);
    if (!submission) return rerender(errors, 422);
    const row = await submitRequested(c, token, submission, { product: subjects[index].product_external_id });
    // Back to the page (a GET: reloading it sends nothing again), at the section now thanking.
    return afterSubmit(c, row, rerender, r.custom_fields, leadsBackTo(r), true, () => {
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return c.redirect(`/r/${token}?c=1#${sectionId(index)}`, 303);
    });
  });

  // ---- Tracking --------------------------------------------------------------------------------
  app.get('/t/o/:file', async (c) => {
    const m = /^([A-Za-z0-9_-]{20,100})\.gif$/.exec(c.req.param('file'));
    if (m && c.req.method === 'GET') {
      await runAsPublic(c.var.sql, (tx) => tx`select plaudit.track_review_request(${m[1]}, 'opened')`, {
        onPrimary: true,
      });
    }
    c.header('Cache-Control', 'no-store, private');
    c.header('Content-Type', 'image/gif');
    return c.body(PIXEL, 200);
  });

  app.get('/t/c/:token', async (c) => {
    const token = c.req.param('token');
    let valid = false;
    if (TOKEN.test(token)) {
      // Hono routes HEAD here too: link checkers and scanners send it, and it is no click. It
      // gets the same answer without recording anything, as the pixel and the landing page do.
      const [row] = c.req.method === 'GET'
        ? await runAsPublic(c.var.sql, (tx) =>
          tx<{ valid: boolean }[]>`
            select plaudit.track_review_request(${token}, 'clicked') as valid`, { onPrimary: true })
        : await runAsPublic(c.var.sql, (tx) =>
          tx<{ valid: boolean }[]>`
            select exists (select from plaudit.review_request_landing(${token})) as valid`, { onPrimary: true });
      valid = row.valid;
    }
    if (!valid) return invalidLink(c);
    const rating = /^[1-5]$/.test(c.req.query('rating') ?? '') ? `&rating=${c.req.query('rating')}` : '';
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    // Only ever to our own landing page: no target comes from the link, so no open redirect.
    return c.redirect(`/r/${token}?c=1${rating}`, 303);
  });

  // ---- Unsubscribe -----------------------------------------------------------------------------
  app.get('/unsubscribe/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    const [info] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ email: string; org_name: string; suppressed: boolean }[]>`
      select * from plaudit.review_request_unsubscribe_info(${token})`, { onPrimary: true });
    if (!info) return invalidLink(c);
    if (info.suppressed) {
      return message(
        c,
        200,
        'You are unsubscribed',
        `${info.email} gets no review requests from ${info.org_name}.`,
        info.org_name,
      );
    }
    return privatePage(
      c,
      200,
      `Unsubscribe from ${info.org_name}`,
      markup`<p class="org">${info.org_name}</p>
<h1>Stop review requests from ${info.org_name}?</h1>
<p>${info.email} will no longer get e-mails asking for a review from ${info.org_name}.</p>
<form method="post" action="/unsubscribe/${token}"><button type="submit">Unsubscribe</button></form>`,
      { privateLink: true },
    );
  });

  app.post('/unsubscribe/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string }[]>`
      select plaudit.unsubscribe_review_request(${token}) as outcome`, { onPrimary: true });
    if (row.outcome === 'invalid') return invalidLink(c);
    const [info] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ email: string; org_name: string }[]>`
      select * from plaudit.review_request_unsubscribe_info(${token})`, { onPrimary: true });
    return message(
      c,
      200,
      'You are unsubscribed',
      `${info?.email ?? 'This address'} will get no more review requests from ${
        info?.org_name ?? 'this organization'
      }.`,
      info?.org_name,
    );
  });

  return app;
}
