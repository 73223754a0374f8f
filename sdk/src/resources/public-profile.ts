import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { PublicProfileSettings, PublicProfileSettingsPatch } from '../types.ts';

const PROFILE = '/api/v1/organizations/{orgId}/public-profile';

/** The settings of the public profile page and of the widget. */
export class PublicProfileResource extends Resource {
  get(opts?: RequestOptions): ApiPromise<PublicProfileSettings> {
    return this.call('get', PROFILE, {}, {}, opts);
  }

  update(body: PublicProfileSettingsPatch, opts?: RequestOptions): ApiPromise<PublicProfileSettings> {
    return this.call('patch', PROFILE, {}, { body }, opts);
  }
}
