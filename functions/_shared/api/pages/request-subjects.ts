// The page of a review request that names products (/r/:token): one form per subject, each product
// in the order the request named them and then the business. Each form is sent on its own, as
// plain HTML (no script): the server answers a review it took with a redirect back to the page,
// which thanks for it in the place of its form; the others stay open for later.
import { imageSource } from '../../core/web-links.ts';
import { markup, raw, type SafeHtml } from './html.ts';
import {
  type Errors,
  finePrint,
  type FormContext,
  formHeader,
  reviewFormBody,
  type Values,
  verificationNote,
} from './review-form.ts';

/** A row of plaudit.review_request_subjects: a product (its external id) or the business (null). */
export type Subject = {
  product_position: number | null;
  product_external_id: string | null;
  name: string;
  image_url: string | null;
  reviewed: boolean;
};

/** Whether the request names products (and so asks about each on its own form). */
export const namesProducts = (subjects: Subject[]) => subjects.some((s) => s.product_external_id !== null);

/** The subject a posted form is about, by its hidden `product` field (none: the business). */
export const postedSubject = (subjects: Subject[], product: string | undefined) =>
  subjects.findIndex((s) => (s.product_external_id ?? '') === (product ?? ''));

/** The anchor of a subject's section, where the redirect after its review lands. */
export const sectionId = (index: number) => `subject-${index + 1}`;

export interface SubjectsView {
  form: Omit<FormContext, 'idPrefix' | 'hidden'>;
  heading: SafeHtml;
  /** The address the request went to: every review is sent with it, which verifies it. */
  email: string;
  /** The recipient's name, prefilled in each form. */
  name: string;
  subjects: Subject[];
  /** The form that was sent, with what it held and what went wrong. */
  posted?: { index: number; values: Values; errors: Errors };
  /** About the page as a whole: a subject reviewed already, a product the request does not name. */
  alert?: string;
}

export const SUBJECTS_STYLE = raw(`
.subject{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem}
.subject img{width:4rem;height:4rem;object-fit:cover;border-radius:.4rem;flex:none;background:#f6f7f9}
.subject h2{font-size:1.2rem;line-height:1.3;margin:0;overflow-wrap:anywhere}
.subjects>section{border-top:1px solid #d0d7de;padding-top:1.5rem;margin-top:1.5rem}
`);

function section(view: SubjectsView, subject: Subject, index: number): SafeHtml {
  const id = sectionId(index);
  const image = imageSource(subject.image_url);
  const business = subject.product_external_id === null;
  const head = markup`<div class="subject">${
    image ? markup`<img src="${image}" alt="${subject.name}" width="64" height="64">` : ''
  }<h2 id="${id}-title">${business ? markup`Your experience with ${subject.name}` : subject.name}</h2></div>`;
  if (subject.reviewed) {
    return markup`<section id="${id}" aria-labelledby="${id}-title">${head}
<p class="notice" role="status">Thank you — your review of ${subject.name} is in.</p></section>`;
  }
  const posted = view.posted?.index === index ? view.posted : undefined;
  const hidden: Record<string, string> = { reviewer_email: view.email };
  if (!business) hidden.product = subject.product_external_id!;
  return markup`<section id="${id}" aria-labelledby="${id}-title">${head}
${
    reviewFormBody(
      { ...view.form, idPrefix: `${id}-`, hidden, verificationSaidAbove: true },
      posted?.values ?? { reviewer_name: view.name },
      posted?.errors ?? {},
      business ? 'Send my review' : 'Send my review of this product',
    )
  }</section>`;
}

/** The page: the header, what to do, a section per subject, the fine print. */
export function subjectsPage(view: SubjectsView): SafeHtml {
  const alert = view.alert ? markup`<div class="summary" role="alert"><p>${view.alert}</p></div>` : '';
  return markup`${formHeader(view.form.orgName, view.form.logoUrl, view.heading)}
${alert}<p>Rate each product and ${view.form.orgName} itself. Each form is sent on its own: write one now, and come back to this page for the others whenever you like.</p>
${verificationNote(view.form)}
<div class="subjects">${view.subjects.map((s, i) => section(view, s, i))}</div>
${finePrint(view.form)}`;
}
