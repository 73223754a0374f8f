// The hosted review form behind each form's submission_url:
//   GET/POST /forms/:formId                        the form, and the review it sends
//   GET/POST /forms/:formId?product=<external_id>  the same, for a review of one product
// It runs plaudit.public_review_form (and plaudit.public_form_product) as plaudit_public, and
// submits through plaudit.submit_review, the same statement as POST /api/v1/reviews
// (core/db/review-submission.ts).
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { submissionContext } from '../middleware/rate-limit/index.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { submitReview } from '../../core/db/review-submission.ts';
import { isUuid } from '../../core/uuid.ts';
import { markup } from './html.ts';
import { type Errors, type FieldDefinition, readSubmission, reviewForm, type Values } from './review-form.ts';
import { formUnderCheck, formValues, message, privatePage } from './shared.ts';
import { policyUrl } from './review-policy.ts';
import { afterSubmit, formUnavailable } from './submission.ts';
import { newUploadToken } from '../api-keys/upload-token.ts';

type FormRow = {
  id: string;
  org_name: string;
  name: string;
  verification_mode: string;
  custom_fields: FieldDefinition[];
  logo_url: string | null;
  website: string | null;
  profile_slug: string | null;
};

type ProductRow = { external_id: string; name: string; image_url: string | null; archived: boolean };

async function loadForm(c: Context<AppEnv>, formId: string) {
  if (!isUuid(formId)) return null;
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<FormRow[]>`select * from plaudit.public_review_form(${formId})`,
  );
  return row ?? null;
}

/** The product of `?product=`: undefined when none is asked for, null when the form's organization has none such. */
async function loadProduct(c: Context<AppEnv>, form: FormRow): Promise<ProductRow | null | undefined> {
  const externalId = c.req.query('product');
  if (externalId === undefined || externalId === '') return undefined;
  if (externalId.length > 200) return null;
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<ProductRow[]>`select * from plaudit.public_form_product(${form.id}, ${externalId})`,
  );
  return row ?? null;
}

/** The page instead of the form when the product asked for cannot be reviewed: unknown (404) or archived (410). */
function productUnavailable(c: Context<AppEnv>, form: FormRow, product: ProductRow | null) {
  return product
    ? message(
      c,
      410,
      'This product takes no new reviews',
      `${product.name} is no longer offered for review. Its published reviews stay visible.`,
      form.org_name,
      false,
    )
    : message(
      c,
      404,
      'This product is not available',
      'The link names a product this business does not have. Check that you opened the whole link.',
      form.org_name,
      false,
    );
}

const formPage = (
  c: Context<AppEnv>,
  form: FormRow,
  product: ProductRow | undefined,
  values: Values,
  errors: Errors,
  status: ContentfulStatusCode,
  underCheck: boolean,
) =>
  privatePage(
    c,
    status,
    `${Object.keys(errors).length ? 'Error: ' : ''}Review ${product ? `${product.name} · ` : ''}${form.org_name}`,
    reviewForm(
      {
        action: product ? `/forms/${form.id}?product=${encodeURIComponent(product.external_id)}` : `/forms/${form.id}`,
        orgName: form.org_name,
        logoUrl: form.logo_url,
        formName: form.name,
        verificationMode: form.verification_mode,
        customFields: form.custom_fields,
        askOrderId: form.verification_mode === 'purchase_proof',
        product: product && { name: product.name, imageUrl: product.image_url },
        policyUrl: form.profile_slug ? policyUrl(c.var.config.publicUrl, form.profile_slug) : null,
        underCheck,
      },
      values,
      errors,
      product ? markup`Your review of ${product.name}` : markup`Review ${form.org_name}`,
    ),
  );

export function hostedFormPages() {
  const app = new Hono<AppEnv>();

  app.get('/forms/:formId', async (c) => {
    const form = await loadForm(c, c.req.param('formId'));
    if (!form) {
      return formUnavailable(c, null, false);
    }
    const product = await loadProduct(c, form);
    if (product === null || product?.archived) return productUnavailable(c, form, product);
    return formPage(
      c,
      form,
      product,
      { rating: /^[1-5]$/.test(c.req.query('rating') ?? '') ? c.req.query('rating')! : '' },
      {},
      200,
      await formUnderCheck(c, form.id, [product?.external_id ?? null]),
    );
  });

  app.post('/forms/:formId', async (c) => {
    const form = await loadForm(c, c.req.param('formId'));
    if (!form) {
      return formUnavailable(c, null, false);
    }
    const product = await loadProduct(c, form);
    if (product === null || product?.archived) return productUnavailable(c, form, product);
    const values = await formValues(c);
    const underCheck = await formUnderCheck(c, form.id, [product?.external_id ?? null]);
    const { submission, errors } = readSubmission(values, form.custom_fields);
    if (!submission) return formPage(c, form, product, values, errors, 422, underCheck);
    // The review's upload token is issued in the same statement, as POST /api/v1/reviews does: the
    // thank-you page holds it for adding photos and videos.
    const upload = newUploadToken();
    const answer = await submitReview(
      c.var.sql,
      { ...submission, form_id: form.id, product_id: null, product_external_id: product?.external_id ?? null },
      submissionContext(c),
      upload.hash,
    );
    // A bot's unstored review got no token; its page offers the upload all the same (nothing accepts
    // the token), so that the page does not tell it apart, as the API's answer does not.
    return afterSubmit(
      c,
      { ...answer, upload_token: upload.token },
      (errs, status) => formPage(c, form, product, values, errs, status, underCheck),
      form.custom_fields,
      { name: form.org_name, website: form.website, profileSlug: form.profile_slug },
      false,
    );
  });

  return app;
}
