import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { QueryOf, ReviewForm, ReviewFormInput, ReviewFormPatch } from '../types.ts';

const FORMS = '/api/v1/organizations/{orgId}/review-forms';
const FORM = '/api/v1/organizations/{orgId}/review-forms/{id}';

export class ReviewForms extends Resource {
  create(body: ReviewFormInput, opts?: RequestOptions): ApiPromise<ReviewForm> {
    return this.call('post', FORMS, {}, { body }, opts);
  }

  list(query?: QueryOf<typeof FORMS>, opts?: RequestOptions): PageRequest<ReviewForm> {
    return this.paged(FORMS, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<ReviewForm> {
    return this.call('get', FORM, { id }, {}, opts);
  }

  update(id: string, body: ReviewFormPatch, opts?: RequestOptions): ApiPromise<ReviewForm> {
    return this.call('patch', FORM, { id }, { body }, opts);
  }

  /** The form stops taking reviews; the reviews it collected stay. */
  delete(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', FORM, { id }, {}, opts) as ApiPromise<never>;
  }
}
