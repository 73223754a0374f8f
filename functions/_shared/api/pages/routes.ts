// The hosted pages and tracking endpoints (no API key; outside /api/v1):
//   GET/POST /forms/:formId           the form behind each form's submission_url
//   GET/POST /r/:token                 the review-request landing page (prefilled; completes the request)
//   GET      /t/o/:token.gif           open pixel
//   GET      /t/c/:token?rating=N      click redirect (to the landing page, rating preselected)
//   GET/POST /unsubscribe/:token       unsubscribe page; POST is also the one-click List-Unsubscribe-Post
//   GET/POST /verify/:token            e-mail verification of a review (GET asks, the button's POST confirms)
//   GET/POST /invitations/:token       accept a team invitation
// Each runs one SQL function as plaudit_public (supabase/migrations/20261125001100_review_requests.sql, "hosted pages");
// a review is submitted through plaudit.submit_review, the same SQL as POST /api/v1/reviews.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { setRateLimitHeaders, submissionBucket } from '../middleware/rate-limit/index.ts';
import { markup, page, type SafeHtml } from './html.ts';
import {
  errorFromDatabase,
  type Errors,
  type FieldDefinition,
  readSubmission,
  reviewForm,
  type Values,
} from './review-form.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { isUuid } from '../../core/uuid.ts';

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

// A transparent 1×1 GIF.
const PIXEL = Uint8Array.from(
  atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  (ch) => ch.charCodeAt(0),
);

function respond(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  body: SafeHtml,
  { privateLink = false } = {},
) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  // Links carrying a token must not leak it to other sites through the Referer header.
  c.header('Referrer-Policy', privateLink ? 'no-referrer' : 'same-origin');
  return c.html(page({ title, body }), status);
}

function message(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  text: string,
  orgName?: string | null,
  privateLink = true,
) {
  return respond(
    c,
    status,
    title,
    markup`${orgName ? markup`<p class="org">${orgName}</p>` : ''}<h1>${title}</h1><p>${text}</p>`,
    { privateLink },
  );
}

/** The page of a form that does not exist or no longer accepts reviews. */
function formUnavailable(c: Context<AppEnv>, orgName: string | null | undefined, privateLink: boolean) {
  return message(
    c,
    404,
    'This form is not available',
    'The form does not exist or no longer accepts reviews.',
    orgName,
    privateLink,
  );
}

async function formValues(c: Context<AppEnv>): Promise<Values> {
  const body = await c.req.parseBody({ all: false });
  const values: Values = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') values[k] = v;
  return values;
}

type SubmitRow = {
  rate_allowed: boolean;
  rate_remaining: number;
  rate_reset: string;
  error_code: string | null;
  error_message: string | null;
  id: string | null;
  verification_status: string | null;
};

function thanks(c: Context<AppEnv>, orgName: string, status: string | null, privateLink: boolean) {
  const next = status === 'pending'
    ? 'We sent you an e-mail: open its link to confirm your review. Until then it is not published.'
    : 'Your review has been received.';
  return respond(
    c,
    201,
    'Thank you for your review',
    markup`<p class="org">${orgName}</p>
<h1 tabindex="-1" autofocus>Thank you for your review</h1>
<p class="notice" role="status">${next}</p>`,
    { privateLink },
  );
}

/** Outcome of a submission: the thank-you page, or the form again with the errors. */
function afterSubmit(
  c: Context<AppEnv>,
  row: SubmitRow,
  rerender: (errors: Errors, status: ContentfulStatusCode) => Response,
  fields: FieldDefinition[],
  orgName: string,
  privateLink: boolean,
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
  if (row.error_code === 'P0002') {
    return formUnavailable(c, orgName, privateLink);
  }
  if (row.error_code === '23505') return rerender({ _form: 'You already sent this review. Thank you!' }, 409);
  if (row.error_code) {
    return rerender(errorFromDatabase(row.error_message ?? 'Your review could not be saved.', fields), 422);
  }
  return thanks(c, orgName, row.verification_status, privateLink);
}

type FormRow = {
  id: string;
  org_name: string;
  name: string;
  verification_mode: string;
  custom_fields: FieldDefinition[];
  logo_url: string | null;
};

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
};

export function hostedPages() {
  const app = new Hono<AppEnv>();

  // ---- The hosted form ------------------------------------------------------------------------
  const loadForm = async (c: Context<AppEnv>, formId: string) => {
    if (!isUuid(formId)) return null;
    const [row] = await runAsPublic(
      c.var.sql,
      (tx) => tx<FormRow[]>`select * from plaudit.public_review_form(${formId})`,
    );
    return row ?? null;
  };
  const formPage = (c: Context<AppEnv>, form: FormRow, values: Values, errors: Errors, status: ContentfulStatusCode) =>
    respond(
      c,
      status,
      `${Object.keys(errors).length ? 'Error: ' : ''}Review ${form.org_name}`,
      reviewForm(
        {
          action: `/forms/${form.id}`,
          orgName: form.org_name,
          logoUrl: form.logo_url,
          formName: form.name,
          verificationMode: form.verification_mode,
          customFields: form.custom_fields,
          askOrderId: form.verification_mode === 'purchase_proof',
        },
        values,
        errors,
        markup`Review ${form.org_name}`,
      ),
    );

  app.get('/forms/:formId', async (c) => {
    const form = await loadForm(c, c.req.param('formId'));
    if (!form) {
      return formUnavailable(c, null, false);
    }
    return formPage(
      c,
      form,
      { rating: /^[1-5]$/.test(c.req.query('rating') ?? '') ? c.req.query('rating')! : '' },
      {},
      200,
    );
  });

  app.post('/forms/:formId', async (c) => {
    const form = await loadForm(c, c.req.param('formId'));
    if (!form) {
      return formUnavailable(c, null, false);
    }
    const values = await formValues(c);
    const { submission, errors } = readSubmission(values, form.custom_fields);
    if (!submission) return formPage(c, form, values, errors, 422);
    const bucket = submissionBucket(c, c.var.config.trustProxy);
    const { config } = c.var;
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<SubmitRow[]>`
      select * from plaudit.submit_review(
        ${bucket}, ${config.submitRateLimitPerMinute}, ${form.id}, ${submission.rating}, ${submission.title},
        ${submission.content}, ${submission.reviewer_name}, ${submission.reviewer_email},
        ${
        tx.json(submission.custom_fields as never)
      }, ${submission.order_id}, ${config.publicUrl}, ${submission.honeypot})`);
    return afterSubmit(
      c,
      row,
      (errs, status) => formPage(c, form, values, errs, status),
      form.custom_fields,
      form.org_name,
      false,
    );
  });

  // ---- Review-request landing page -------------------------------------------------------------
  const loadLanding = async (c: Context<AppEnv>, token: string) => {
    if (!TOKEN.test(token)) return null;
    const [row] = await runAsPublic(
      c.var.sql,
      (tx) => tx<LandingRow[]>`select * from plaudit.review_request_landing(${token})`,
    );
    return row ?? null;
  };
  const landingPage = (
    c: Context<AppEnv>,
    token: string,
    r: LandingRow,
    values: Values,
    errors: Errors,
    status: ContentfulStatusCode,
  ) =>
    respond(
      c,
      status,
      `${Object.keys(errors).length ? 'Error: ' : ''}Review ${r.org_name}`,
      reviewForm(
        {
          action: `/r/${token}`,
          orgName: r.org_name,
          logoUrl: r.logo_url,
          invited: true,
          formName: r.form_name,
          verificationMode: r.verification_mode,
          customFields: r.custom_fields,
          askOrderId: r.verification_mode === 'purchase_proof' && !r.order_id,
        },
        values,
        errors,
        markup`How was your experience with ${r.org_name}, ${r.name}?`,
      ),
      { privateLink: true },
    );
  const notFound = (c: Context<AppEnv>) =>
    message(c, 404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.');
  const landingClosed = (c: Context<AppEnv>, r: LandingRow) => {
    if (r.status === 'completed') {
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
  };

  app.get('/r/:token', async (c) => {
    const token = c.req.param('token');
    const r = await loadLanding(c, token);
    if (!r) return notFound(c);
    // Opening the page is a click, unless the click redirect already counted it.
    if (c.req.query('c') !== '1' && c.req.method === 'GET') {
      await runAsPublic(c.var.sql, (tx) => tx`select plaudit.track_review_request(${token}, 'clicked')`);
    }
    const closed = landingClosed(c, r);
    if (closed) return closed;
    const rating = /^[1-5]$/.test(c.req.query('rating') ?? '') ? c.req.query('rating')! : '';
    return landingPage(c, token, r, { rating, reviewer_name: r.name, reviewer_email: r.email }, {}, 200);
  });

  app.post('/r/:token', async (c) => {
    const token = c.req.param('token');
    const r = await loadLanding(c, token);
    if (!r) return notFound(c);
    const closed = landingClosed(c, r);
    if (closed) return closed;
    const values = await formValues(c);
    const { submission, errors } = readSubmission(values, r.custom_fields);
    if (!submission) return landingPage(c, token, r, values, errors, 422);
    const bucket = submissionBucket(c, c.var.config.trustProxy);
    const { config } = c.var;
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<SubmitRow[]>`
      select * from plaudit.submit_requested_review(
        ${token}, ${bucket}, ${config.submitRateLimitPerMinute}, ${submission.rating}, ${submission.title},
        ${submission.content}, ${submission.reviewer_name}, ${submission.reviewer_email},
        ${
        tx.json(submission.custom_fields as never)
      }, ${submission.order_id}, ${config.publicUrl}, ${submission.honeypot})`);
    return afterSubmit(
      c,
      row,
      (errs, status) => landingPage(c, token, r, values, errs, status),
      r.custom_fields,
      r.org_name,
      true,
    );
  });

  // ---- Tracking --------------------------------------------------------------------------------
  app.get('/t/o/:file', async (c) => {
    const m = /^([A-Za-z0-9_-]{20,100})\.gif$/.exec(c.req.param('file'));
    if (m && c.req.method === 'GET') {
      await runAsPublic(c.var.sql, (tx) => tx`select plaudit.track_review_request(${m[1]}, 'opened')`);
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
            select plaudit.track_review_request(${token}, 'clicked') as valid`)
        : await runAsPublic(c.var.sql, (tx) =>
          tx<{ valid: boolean }[]>`
            select exists (select from plaudit.review_request_landing(${token})) as valid`);
      valid = row.valid;
    }
    if (!valid) return notFound(c);
    const rating = /^[1-5]$/.test(c.req.query('rating') ?? '') ? `&rating=${c.req.query('rating')}` : '';
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    // Only ever to our own landing page: no target comes from the link, so no open redirect.
    return c.redirect(`/r/${token}?c=1${rating}`, 303);
  });

  // ---- Unsubscribe -----------------------------------------------------------------------------
  app.get('/unsubscribe/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return notFound(c);
    const [info] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ email: string; org_name: string; suppressed: boolean }[]>`
      select * from plaudit.review_request_unsubscribe_info(${token})`);
    if (!info) return notFound(c);
    if (info.suppressed) {
      return message(
        c,
        200,
        'You are unsubscribed',
        `${info.email} gets no review requests from ${info.org_name}.`,
        info.org_name,
      );
    }
    return respond(
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
    if (!TOKEN.test(token)) return notFound(c);
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string }[]>`
      select plaudit.unsubscribe_review_request(${token}) as outcome`);
    if (row.outcome === 'invalid') return notFound(c);
    const [info] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ email: string; org_name: string }[]>`
      select * from plaudit.review_request_unsubscribe_info(${token})`);
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

  // ---- E-mail verification of a review ----------------------------------------------------------
  const VERIFY: Record<string, [ContentfulStatusCode, string, string]> = {
    verified: [
      200,
      'Your review is confirmed',
      'Thank you: your e-mail address is confirmed and your review will be published.',
    ],
    already_used: [
      409,
      'This link was already used',
      'Your review was confirmed with this link before: there is nothing more to do.',
    ],
    not_pending: [409, 'Nothing to confirm', 'This review does not need confirming any more.'],
    expired: [
      410,
      'This link has expired',
      'Confirmation links are valid for 7 days. Submit your review again to get a new link.',
    ],
    invalid: [404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.'],
  };
  // Opening the link changes nothing: mail providers' link scanners fetch every link of a message,
  // and must not confirm a review nobody confirmed. The button posts.
  app.get('/verify/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return message(c, ...VERIFY.invalid);
    const [link] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ state: string; org_name: string | null }[]>`
      select * from plaudit.verification_link_state(${token})`);
    if (link.state !== 'pending') return message(c, ...(VERIFY[link.state] ?? VERIFY.invalid), link.org_name);
    return respond(
      c,
      200,
      'Confirm your review',
      markup`<p class="org">${link.org_name}</p>
<h1>Confirm your review</h1>
<p>Confirm that this e-mail address is yours: your review of ${link.org_name} is then published.</p>
<form method="post" action="/verify/${token}"><button type="submit">Confirm my review</button></form>`,
      { privateLink: true },
    );
  });

  app.post('/verify/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return message(c, ...VERIFY.invalid);
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string; org_name: string | null }[]>`
      select * from plaudit.verify_review_link(${token})`);
    const [status, title, text] = VERIFY[row.outcome] ?? VERIFY.invalid;
    return message(c, status, title, text, row.org_name);
  });

  // ---- Team invitations ------------------------------------------------------------------------
  type InvitationRow = {
    state: string;
    email: string | null;
    role: string | null;
    org_name: string | null;
    expires_at: Date | null;
  };
  const INVITATION: Record<string, [ContentfulStatusCode, string, string]> = {
    accepted: [409, 'This invitation was already accepted', 'You are a member already: nothing more to do.'],
    accepted_before: [409, 'This invitation was already accepted', 'You are a member already: nothing more to do.'],
    expired: [410, 'This invitation has expired', 'Invitations are valid for 7 days. Ask for a new one.'],
    revoked: [410, 'This invitation was withdrawn', 'Ask the person who invited you for a new invitation.'],
    invalid: [404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.'],
  };
  const invitationForm = (c: Context<AppEnv>, token: string, inv: InvitationRow, errors: Errors, name = '') =>
    respond(
      c,
      Object.keys(errors).length ? 422 : 200,
      `Join ${inv.org_name}`,
      markup`<p class="org">${inv.org_name}</p>
<h1>Join ${inv.org_name} on Plaudit</h1>
<p>You are invited as ${inv.role === 'admin' ? 'an administrator' : 'a member'}, with the address ${inv.email}.</p>
<form method="post" action="/invitations/${token}" novalidate>
<div class="field"><label for="f-name">Your name</label>
<input type="text" id="f-name" name="name" autocomplete="name" maxlength="200" required aria-required="true" value="${name}"${
        errors.name ? markup` aria-invalid="true" aria-describedby="f-name-error" autofocus` : ''
      }>
${errors.name ? markup`<p class="error" id="f-name-error">${errors.name}</p>` : ''}</div>
<button type="submit">Accept the invitation</button>
</form>`,
      { privateLink: true },
    );

  const loadInvitation = async (c: Context<AppEnv>, token: string) => {
    if (!TOKEN.test(token)) return { state: 'invalid' } as InvitationRow;
    const [row] = await runAsPublic(
      c.var.sql,
      (tx) => tx<InvitationRow[]>`select * from plaudit.invitation_for_token(${token})`,
    );
    return row;
  };

  app.get('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const inv = await loadInvitation(c, token);
    if (inv.state !== 'pending') return message(c, ...(INVITATION[inv.state] ?? INVITATION.invalid), inv.org_name);
    return invitationForm(c, token, inv, {});
  });

  app.post('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const inv = await loadInvitation(c, token);
    if (inv.state !== 'pending') return message(c, ...(INVITATION[inv.state] ?? INVITATION.invalid), inv.org_name);
    const name = (await formValues(c)).name?.trim() ?? '';
    if (!name || name.length > 200) {
      return invitationForm(c, token, inv, {
        name: name ? 'Your name can be at most 200 characters long.' : 'Enter your name.',
      }, name);
    }
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string }[]>`
      select plaudit.accept_invitation(${token}, ${name}) as outcome`);
    if (row.outcome === 'accepted' || row.outcome === 'already_member') {
      // The next step is the dashboard: signing in there with this address sends its mail.
      return respond(
        c,
        200,
        `Welcome to ${inv.org_name}`,
        markup`<p class="org">${inv.org_name}</p><h1>Welcome to ${inv.org_name}</h1>
<p>You are now a member of ${inv.org_name} on Plaudit. Sign in to the dashboard with ${inv.email}: we e-mail you a link and a code, no password needed.</p>
<p><a class="button" href="/app">Sign in to the dashboard</a></p>`,
        { privateLink: true },
      );
    }
    return message(c, ...(INVITATION[row.outcome] ?? INVITATION.invalid), inv.org_name);
  });

  return app;
}
