import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { QueryOf, Report, ReportResolution } from '../types.ts';

const REPORTS = '/api/v1/organizations/{orgId}/reports';
const REPORT = '/api/v1/organizations/{orgId}/reports/{id}';

/** Visitors' reports of the organization's published reviews. A report never hides a review by itself. */
export class Reports extends Resource {
  /** Reports newest first, each with its review; `status: 'open'` or `'resolved'` to filter. */
  list(query?: QueryOf<typeof REPORTS>, opts?: RequestOptions): PageRequest<Report> {
    return this.paged(REPORTS, {}, query, opts);
  }

  /** Resolves a report with what was done about it; resolving it again replaces the resolution. */
  resolve(id: string, resolution: string, opts?: RequestOptions): ApiPromise<Report> {
    const body: ReportResolution = { status: 'resolved', resolution };
    return this.call('patch', REPORT, { id }, { body }, opts);
  }
}
