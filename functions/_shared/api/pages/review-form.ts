// The review form shared by the hosted form page (/forms/:formId) and the review-request landing
// page (/r/:token): rendering, reading a submitted (urlencoded) form, and validating it the way
// POST /api/v1/reviews does. Plain HTML: it works without JavaScript; errors are listed in a
// summary (links to the fields) and next to each field (aria-describedby), and the first
// invalid field gets the focus (autofocus).
import { markup, type SafeHtml } from './html.ts';
import { imageSource } from '../../core/web-links.ts';
import { fieldErrorsOf } from '../../core/errors.ts';
import type { ReviewInput } from '../../core/db/review-submission.ts';

export interface FieldDefinition {
  key: string;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'select' | 'boolean' | 'scale' | 'rating';
  required?: boolean;
  options?: string[];
  /** A scale field's labels, in order (Runs small, True to size, Runs large). */
  scale?: string[];
}

export interface FormContext {
  action: string;
  orgName: string;
  /** The business's logo (its public profile's), shown above the form. */
  logoUrl?: string | null;
  formName: string;
  verificationMode: string;
  customFields: FieldDefinition[];
  /** Show an order id field (purchase-proof forms without a known order). */
  askOrderId: boolean;
  /** Reached from a review request's e-mail: the invitation verifies the review. */
  invited?: boolean;
  /** Starts the ids of the form's controls, so that several forms share one page ('' for one form). */
  idPrefix?: string;
  /** Fields sent as they are, unseen (a request's page: the subject reviewed, the invited address). */
  hidden?: Record<string, string>;
  /** The page says how reviews are verified once, above its forms. */
  verificationSaidAbove?: boolean;
  /** The product reviewed, shown under the heading: its name, and its image when it has one. */
  product?: { name: string; imageUrl: string | null };
  /** The business's review policy page (/p/:slug/policy), linked from the fine print; none while its profile is off. */
  policyUrl?: string | null;
  /** A review written now would be held for a check (an open hold on its subject: a burst of reviews). */
  underCheck?: boolean;
}

/**
 * How the review will be verified, when the reviewer has something to know or do (an invitation
 * verifies it, but neither for a form whose reviews the business approves nor while a burst's hold
 * keeps its subject's reviews for a person's check: the fine print says so).
 */
export function verificationNote(ctx: Pick<FormContext, 'invited' | 'verificationMode' | 'underCheck'>) {
  return ctx.invited && ctx.verificationMode !== 'manual' && !ctx.underCheck
    ? markup`<p class="hint">Sent with the address this invitation went to, your review is published as verified: no confirmation e-mail needed.</p>`
    : ctx.verificationMode === 'email'
    ? markup`<p class="hint">We will e-mail you a link to confirm your review before it is published.</p>`
    : '';
}

export type Values = Record<string, string>;
export type Errors = Record<string, string>;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Field name in the HTML form → id of its control (after the form's prefix, on a page of several). */
export const controlId = (name: string, prefix = '') => `${prefix}f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

/** What a reviewer sends on a page: the review, but for the form and product the page decides. */
export type Submission = Omit<ReviewInput, 'form_id' | 'product_id' | 'product_external_id'>;

/** Reads and checks the posted form; answers the submission or the errors by field name. */
export function readSubmission(form: Values, fields: FieldDefinition[]): { submission?: Submission; errors: Errors } {
  const errors: Errors = {};
  const s = (k: string) => (form[k] ?? '').trim();
  const rating = Number(s('rating'));
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = 'Choose a rating from 1 to 5 stars.';
  const title = s('title');
  if (title.length > 200) errors.title = 'The title can be at most 200 characters long.';
  const content = s('content');
  if (!content) errors.content = 'Write a few words about your experience.';
  else if (content.length > 5000) errors.content = 'Your review can be at most 5,000 characters long.';
  const name = s('reviewer_name');
  if (!name) errors.reviewer_name = 'Enter your name.';
  else if (name.length > 200) errors.reviewer_name = 'Your name can be at most 200 characters long.';
  const email = s('reviewer_email');
  if (!email) errors.reviewer_email = 'Enter your e-mail address.';
  else if (email.length > 320 || !EMAIL.test(email)) {
    errors.reviewer_email = 'Enter an e-mail address such as name@example.com.';
  }
  const custom: Record<string, unknown> = {};
  for (const f of fields) {
    const name = `cf_${f.key}`;
    const v = s(name);
    if (f.type === 'boolean') {
      custom[f.key] = form[name] !== undefined && form[name] !== '';
      continue;
    }
    if (!v) {
      if (f.required) errors[name] = `${f.label}: this field is required.`;
      continue;
    }
    if (f.type === 'number') {
      const n = Number(v);
      if (!Number.isFinite(n)) errors[name] = `${f.label}: enter a number.`;
      else custom[f.key] = n;
    } else if (f.type === 'select' && !(f.options ?? []).includes(v)) {
      errors[name] = `${f.label}: choose one of the options.`;
    } else if (f.type === 'scale' && !(f.scale ?? []).includes(v)) {
      errors[name] = `${f.label}: choose one of the answers.`;
    } else if (f.type === 'rating') {
      if (/^[1-5]$/.test(v)) custom[f.key] = Number(v);
      else errors[name] = `${f.label}: choose from 1 to 5 stars.`;
    } else {
      custom[f.key] = v;
    }
  }
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    submission: {
      rating,
      title: title || null,
      content,
      reviewer_name: name,
      reviewer_email: email,
      custom_fields: custom,
      order_id: s('order_id') || null,
      honeypot: s('website_url') !== '',
    },
  };
}

/**
 * Where a refusal's message (http/db-errors.ts) belongs on the form: the fields it names, read as
 * the API's `errors` read them (core/errors.ts): `custom_fields.size: is required` → the field
 * `cf_size`; `content: …` → `content`; anything else → the form as a whole (`_form`).
 */
export function errorFromDatabase(message: string, fields: FieldDefinition[]): Errors {
  const errors: Errors = {};
  for (const { field, message: text } of fieldErrorsOf(message)) {
    const key = /^custom_fields\.(.+)$/.exec(field)?.[1];
    if (key !== undefined) {
      errors[`cf_${key}`] = `${fields.find((f) => f.key === key)?.label ?? key}: ${text}`;
    } else if (Object.hasOwn(LABELS, field)) {
      errors[field] = `${text[0].toUpperCase()}${text.slice(1)}`;
    }
  }
  return Object.keys(errors).length ? errors : { _form: message };
}

const LABELS: Record<string, string> = {
  rating: 'Your rating',
  title: 'Title',
  content: 'Your review',
  reviewer_name: 'Your name',
  reviewer_email: 'Your e-mail address',
  order_id: 'Order number',
};

/** What every control of one form is rendered with: its errors, the first of them, its ids' prefix. */
interface FormState {
  errors: Errors;
  first: string | undefined;
  prefix: string;
}

function errorText(name: string, { errors, prefix }: FormState) {
  return errors[name] ? markup`<p class="error" id="${controlId(name, prefix)}-error">${errors[name]}</p>` : '';
}

function controlAttrs(name: string, { errors, first, prefix }: FormState, hint?: string) {
  const id = controlId(name, prefix);
  const described = [hint ? `${id}-hint` : '', errors[name] ? `${id}-error` : ''].filter(Boolean).join(' ');
  return markup`id="${id}" name="${name}"${errors[name] ? markup` aria-invalid="true"` : ''}${
    described ? markup` aria-describedby="${described}"` : ''
  }${first === name ? markup` autofocus` : ''}`;
}

function textField(
  name: string,
  label: string,
  values: Values,
  state: FormState,
  opts: { type?: string; required?: boolean; max?: number; autocomplete?: string; hint?: string; textarea?: boolean } =
    {},
) {
  const id = controlId(name, state.prefix);
  const hint = opts.hint ? markup` <span class="hint" id="${id}-hint">${opts.hint}</span>` : '';
  const attrs = controlAttrs(name, state, opts.hint);
  const req = opts.required ? markup` required aria-required="true"` : '';
  const max = opts.max ? markup` maxlength="${opts.max}"` : '';
  const ac = opts.autocomplete ? markup` autocomplete="${opts.autocomplete}"` : '';
  const control = opts.textarea
    ? markup`<textarea ${attrs}${req}${max}>${values[name] ?? ''}</textarea>`
    : markup`<input type="${opts.type ?? 'text'}" ${attrs}${req}${max}${ac} value="${values[name] ?? ''}">`;
  return markup`<div class="field"><label for="${id}">${label}${
    opts.required ? '' : markup` <span class="hint">(optional)</span>`
  }${hint}</label>
${control}${errorText(name, state)}</div>`;
}

function customField(f: FieldDefinition, values: Values, state: FormState): SafeHtml {
  const name = `cf_${f.key}`;
  if (f.type === 'boolean') {
    const checked = values[name] !== undefined && values[name] !== '';
    return markup`<div class="field"><label class="check"><input type="checkbox" ${
      controlAttrs(name, state)
    } value="yes"${checked ? markup` checked` : ''}> <span>${f.label}</span></label>${errorText(name, state)}</div>`;
  }
  if (f.type === 'scale' || f.type === 'rating') return choiceField(f, values, state);
  if (f.type === 'select') {
    const req = f.required ? markup` required aria-required="true"` : '';
    const options = (f.options ?? []).map((o) =>
      markup`<option${values[name] === o ? markup` selected` : ''}>${o}</option>`
    );
    return markup`<div class="field"><label for="${controlId(name, state.prefix)}">${f.label}${
      f.required ? '' : markup` <span class="hint">(optional)</span>`
    }</label>
<select ${controlAttrs(name, state)}${req}><option value="">Choose…</option>${options}</select>${
      errorText(name, state)
    }</div>`;
  }
  return textField(name, f.label, values, state, {
    type: f.type === 'number' ? 'number' : 'text',
    required: f.required,
    textarea: f.type === 'textarea',
    max: f.type === 'textarea' ? 5000 : f.type === 'text' ? 500 : undefined,
  });
}

/**
 * A scale field as a group of radios, one per label in order; a rating field as star radios, as
 * the review's own rating. The group's first radio carries the field's id (the error summary's link).
 */
function choiceField(f: FieldDefinition, values: Values, state: FormState): SafeHtml {
  const name = `cf_${f.key}`;
  const id = controlId(name, state.prefix);
  const choices = f.type === 'scale' ? (f.scale ?? []).map((l) => ({ value: l, text: markup`${l}` })) : [1, 2, 3, 4, 5]
    .map((n) => ({
      value: String(n),
      text: markup`<span class="s" aria-hidden="true">${'★'.repeat(n)}</span> ${n} star${n === 1 ? '' : 's'}`,
    }));
  const radios = choices.map((c, i) =>
    markup`<label><input type="radio" name="${name}" value="${c.value}"${i === 0 ? markup` id="${id}"` : ''}${
      values[name] === c.value ? markup` checked` : ''
    }${state.first === name && i === 0 ? markup` autofocus` : ''}${f.required ? markup` required` : ''}>${
      f.type === 'scale' ? ' ' : ''
    }${c.text}</label>`
  );
  return markup`<fieldset class="field"${
    state.errors[name] ? markup` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }>
<legend>${f.label}${f.required ? '' : markup` <span class="hint">(optional)</span>`}</legend>
<p class="hint">Shown with your review.</p>
<div class="stars">${radios}</div>${errorText(name, state)}</fieldset>`;
}

function ratingField(values: Values, state: FormState): SafeHtml {
  const { errors, first, prefix } = state;
  const current = values.rating ?? '';
  const options = [1, 2, 3, 4, 5].map((n) =>
    markup`<label><input type="radio" name="rating" value="${n}"${
      n === 1 ? markup` id="${controlId('rating', prefix)}"` : ''
    }${current === String(n) ? markup` checked` : ''}${
      first === 'rating' && n === 1 ? markup` autofocus` : ''
    } required><span class="s" aria-hidden="true">${'★'.repeat(n)}</span> ${n} star${n === 1 ? '' : 's'}</label>`
  );
  return markup`<fieldset class="field"${
    errors.rating ? markup` aria-invalid="true" aria-describedby="${controlId('rating', prefix)}-error"` : ''
  }>
<legend>${LABELS.rating}</legend>
<div class="stars">${options}</div>${errorText('rating', state)}</fieldset>`;
}

/** The business's logo and name, and the page's heading: the top of a page of review forms. */
export function formHeader(orgName: string, logoUrl: string | null | undefined, heading: SafeHtml | string): SafeHtml {
  const logo = imageSource(logoUrl);
  return markup`${
    logo ? markup`<img class="logo" src="${logo}" alt="${orgName} logo" width="48" height="48">` : ''
  }<p class="org">${orgName}</p>
<h1>${heading}</h1>`;
}

/**
 * When the review is published, as the page's settings make it true: after a person's check while
 * its subject is held, after the business's approval (form mode `manual`), after the address's or
 * the order's check (`email`, `purchase_proof`; an invitation verifies at once), else at once.
 */
function whenPublished(ctx: Pick<FormContext, 'orgName' | 'verificationMode' | 'invited' | 'underCheck'>) {
  const { orgName } = ctx;
  if (ctx.underCheck) {
    return markup`${orgName} is checking an unusual number of recent reviews: yours is published as you write it once a person has checked it, or not at all.`;
  }
  if (ctx.verificationMode === 'manual') {
    return markup`${orgName} reads each review before publishing it: yours is published as you write it, or not at all.`;
  }
  const once = ctx.invited
    ? ''
    : ctx.verificationMode === 'email'
    ? 'Once you confirm your address, your'
    : ctx.verificationMode === 'purchase_proof'
    ? markup`Once ${orgName} finds your order, your`
    : '';
  return markup`${once || 'Your'} review is published as you write it, whatever its rating.`;
}

/** The line under a page of review forms: when the review is published, who collects it, the policy. */
export const finePrint = (
  ctx: Pick<FormContext, 'orgName' | 'verificationMode' | 'invited' | 'underCheck' | 'policyUrl'>,
) =>
  markup`<p class="fine">${whenPublished(ctx)} Reviews are collected for ${ctx.orgName} by Plaudit.${
    ctx.policyUrl
      ? markup` How reviews are checked, published and hidden: <a href="${ctx.policyUrl}">the review policy of ${ctx.orgName}</a>.`
      : ''
  }</p>`;

/** The form alone (its error summary above it), with the values given back and the errors shown. */
export function reviewFormBody(ctx: FormContext, values: Values, errors: Errors, submitLabel = 'Send my review') {
  const prefix = ctx.idPrefix ?? '';
  const hidden = ctx.hidden ?? {};
  const askEmail = hidden.reviewer_email === undefined;
  const order = [
    'rating',
    'title',
    'content',
    ...ctx.customFields.map((f) => `cf_${f.key}`),
    'reviewer_name',
    'reviewer_email',
    'order_id',
  ];
  const state: FormState = { errors, first: order.find((k) => errors[k]), prefix };
  const labelOf = (k: string) =>
    k.startsWith('cf_') ? ctx.customFields.find((f) => `cf_${f.key}` === k)?.label ?? k : LABELS[k] ?? k;
  const listed = order.filter((k) => errors[k]);
  const summary = listed.length || errors._form
    ? markup`<div class="summary" role="alert" aria-labelledby="${prefix}summary-title"><h2 id="${prefix}summary-title">${
      listed.length
        ? `Please correct ${listed.length === 1 ? 'one thing' : `${listed.length} things`}`
        : 'Your review was not sent'
    }</h2>
<ul>${listed.map((k) => markup`<li><a href="#${controlId(k, prefix)}">${labelOf(k)}: ${errors[k]}</a></li>`)}${
      errors._form ? markup`<li>${errors._form}</li>` : ''
    }</ul></div>`
    : '';
  return markup`${summary}
<form method="post" action="${ctx.action}" novalidate>
${Object.entries(hidden).map(([name, value]) => markup`<input type="hidden" name="${name}" value="${value}">`)}
${ratingField(values, state)}
${textField('title', LABELS.title, values, state, { max: 200 })}
${textField('content', LABELS.content, values, state, { required: true, max: 5000, textarea: true })}
${ctx.customFields.map((f) => customField(f, values, state))}
${
    textField('reviewer_name', LABELS.reviewer_name, values, state, {
      required: true,
      max: 200,
      autocomplete: 'name',
    })
  }
${
    askEmail
      ? textField('reviewer_email', LABELS.reviewer_email, values, state, {
        type: 'email',
        required: true,
        max: 320,
        autocomplete: 'email',
        hint: 'Never shown publicly.',
      })
      : ''
  }
${
    ctx.askOrderId
      ? textField('order_id', LABELS.order_id, values, state, {
        max: 200,
        hint: 'Lets us mark your review as a verified purchase.',
      })
      : ''
  }
<div class="trap" aria-hidden="true"><label for="${prefix}f-website_url">Leave this empty</label><input type="text" id="${prefix}f-website_url" name="website_url" tabindex="-1" autocomplete="off" value=""></div>
${ctx.verificationSaidAbove ? '' : verificationNote(ctx)}
<button type="submit">${submitLabel}</button>
</form>`;
}

/** The page's form: the header, the form, the fine print. */
export function reviewForm(ctx: FormContext, values: Values, errors: Errors, heading: SafeHtml | string): SafeHtml {
  // The pages' CSP loads images over https only: an http picture is asked for over https.
  const productImage = imageSource(ctx.product?.imageUrl);
  return markup`${formHeader(ctx.orgName, ctx.logoUrl, heading)}
${
    productImage
      ? markup`<img class="product-thumb" src="${productImage}" alt="${ctx.product!.name}" width="120" height="120">`
      : ''
  }
${reviewFormBody(ctx, values, errors)}
${finePrint(ctx)}`;
}
