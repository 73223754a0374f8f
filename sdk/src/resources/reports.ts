import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { QueryOf, Report, ReportResolution } from '../types.ts';

const REPORTS = '/api/v1/organizations/{orgId}/reports';
const REPORT = '/api/v1/organizations/{orgId}/reports/{id}';

/** Visitors' reports (notices) of the organization's published reviews, decided hidden or kept. */
export class Reports extends Resource {
  /** Reports newest first, each with its review; `status: 'open'` or `'resolved'` to filter. */
  list(query?: QueryOf<typeof REPORTS>, opts?: RequestOptions): PageRequest<Report> {
    return this.paged(REPORTS, {}, query, opts);
  }

  /**
   * Resolves a report with the decision (`hidden` hides the review; `kept`, the default, leaves it)
   * and the reasons, mailed to a reporter who left an address; resolving it again replaces them.
   */
  resolve(
    id: string,
    resolution: string,
    opts?: RequestOptions & { decision?: ReportResolution['decision'] },
  ): ApiPromise<Report> {
    const { decision = 'kept', ...request } = opts ?? {};
    const body: ReportResolution = { status: 'resolved', decision, resolution };
    return this.call('patch', REPORT, { id }, { body }, request);
  }
}
