import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type { ItemOf, QueryOf, ResponseOf } from '../types.ts';

const BASE = '/api/v1/organizations/{orgId}/imports';
type ImportJob = ResponseOf<`${typeof BASE}/{id}`, 'get'>;

export interface ImportOptions {
  /** The platform; detected from the header row when left out. */
  format?: 'plaudit' | 'judgeme' | 'yotpo' | 'okendo' | 'loox' | 'shopify';
  /** Read and count everything, write nothing. */
  dryRun?: boolean;
  /** How the file writes `07/04/2024`: day first (`dmy`) or month first (`mdy`); without it such a date is refused. */
  dateOrder?: 'dmy' | 'mdy';
}

/** Reviews brought from other platforms: a job per file, applied in the background. */
export class Imports extends Resource {
  /** Uploads a platform's CSV export (a Blob, bytes or text, at most 20 MB); answers the queued job. */
  create(file: Blob | Uint8Array | string, options: ImportOptions = {}, opts?: RequestOptions): ApiPromise<ImportJob> {
    const form = new FormData();
    form.append(
      'file',
      file instanceof Blob ? file : new Blob([file as BlobPart], { type: 'text/csv' }),
      'reviews.csv',
    );
    if (options.format) form.append('format', options.format);
    if (options.dryRun !== undefined) form.append('dry_run', String(options.dryRun));
    if (options.dateOrder) form.append('date_order', options.dateOrder);
    return this.call('post', BASE, {}, { body: form }, opts) as never;
  }

  list(query: QueryOf<typeof BASE> = {}, opts?: RequestOptions): PageRequest<ItemOf<typeof BASE>> {
    return this.paged(BASE, {}, query, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<ImportJob> {
    return this.call('get', `${BASE}/{id}`, { id }, {}, opts);
  }
}
