import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { Resource } from '../resource.ts';
import type { DsaTransparencyReport } from '../types.ts';

const DSA = '/api/v1/organizations/{orgId}/transparency/dsa';
const DSA_CSV = '/api/v1/organizations/{orgId}/transparency/dsa.csv';

/** The yearly transparency report in the EU's harmonised templates (DSA Art. 15, 24); an admin key. */
export class Transparency extends Resource {
  /** A calendar year's figures (UTC): notices, own-initiative restrictions and appeals. */
  dsa(year: number, opts?: RequestOptions): ApiPromise<DsaTransparencyReport> {
    return this.call('get', DSA, {}, { query: { year } }, opts);
  }

  /** The same figures as CSV text, one a row. */
  dsaCsv(year: number, opts?: RequestOptions): ApiPromise<string> {
    return this.call('get', DSA_CSV, {}, { query: { year } }, opts) as never;
  }
}
