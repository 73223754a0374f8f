// The hosted review form behind each form's submission_url:
//   GET/POST /forms/:formId   the form, and the review it sends
// It runs plaudit.public_review_form as plaudit_public, and submits through plaudit.submit_review,
// the same SQL as POST /api/v1/reviews.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { submissionBucket } from '../middleware/rate-limit/index.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { isUuid } from '../../core/uuid.ts';
import { markup } from './html.ts';
import { type Errors, type FieldDefinition, readSubmission, reviewForm, type Values } from './review-form.ts';
import { formValues, privatePage } from './shared.ts';
import { afterSubmit, formUnavailable, type SubmitRow } from './submission.ts';
import { asJson } from '../../core/db/client.ts';

type FormRow = {
  id: string;
  org_name: string;
  name: string;
  verification_mode: string;
  custom_fields: FieldDefinition[];
  logo_url: string | null;
};

async function loadForm(c: Context<AppEnv>, formId: string) {
  if (!isUuid(formId)) return null;
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<FormRow[]>`select * from plaudit.public_review_form(${formId})`,
  );
  return row ?? null;
}

const formPage = (c: Context<AppEnv>, form: FormRow, values: Values, errors: Errors, status: ContentfulStatusCode) =>
  privatePage(
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

export function hostedFormPages() {
  const app = new Hono<AppEnv>();

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
        tx.json(asJson(submission.custom_fields))
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

  return app;
}
