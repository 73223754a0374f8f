import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { Automation, AutomationPatch } from '../types.ts';

const AUTOMATION = '/api/v1/organizations/{orgId}/review-requests/automation';

/** Whether orders from the connections make review requests, when, and for which products not (admin key). */
export class AutomationResource extends Resource {
  get(opts?: RequestOptions): ApiPromise<Automation> {
    return this.call('get', AUTOMATION, {}, {}, opts);
  }

  /** Fields left out stay as they are. */
  update(body: AutomationPatch, opts?: RequestOptions): ApiPromise<Automation> {
    return this.call('patch', AUTOMATION, {}, { body }, opts);
  }
}
