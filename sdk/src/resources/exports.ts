import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import { PlauditError } from '../errors.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import { sleep } from '../retry.ts';
import type { ExportInput, ExportJob, QueryOf } from '../types.ts';

const EXPORTS = '/api/v1/organizations/{orgId}/exports';
const EXPORT = '/api/v1/organizations/{orgId}/exports/{id}';

export interface WaitOptions extends RequestOptions {
  /** First pause between polls (ms, 500 by default); each pause is 1.5 times the last, up to 5 s. */
  pollIntervalMs?: number;
  /** Give up after this long (ms, 5 minutes by default). */
  maxWaitMs?: number;
  /** Replaces the pause between polls (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export class Exports extends Resource {
  /** Starts an export of the organization's reviews (`csv` or `json`, optional filters). */
  create(body: ExportInput, opts?: RequestOptions): ApiPromise<ExportJob> {
    return this.call('post', EXPORTS, {}, { body }, opts);
  }

  get(id: string, opts?: RequestOptions): ApiPromise<ExportJob> {
    return this.call('get', EXPORT, { id }, {}, opts);
  }

  list(query?: QueryOf<typeof EXPORTS>, opts?: RequestOptions): PageRequest<ExportJob> {
    return this.paged(EXPORTS, {}, query, opts);
  }

  /** The file of a completed export, as a stream of bytes (ConflictError until it is completed). */
  download(id: string, opts?: RequestOptions): ApiPromise<ReadableStream<Uint8Array>> {
    return this.call('get', `${EXPORT}/download`, { id }, { stream: true }, opts) as never;
  }

  /** Creates an export and polls it, backing off, until it is completed; throws if it fails. */
  async createAndWait(body: ExportInput, opts: WaitOptions = {}): Promise<ExportJob> {
    const wait = opts.sleep ?? sleep;
    const deadline = Date.now() + (opts.maxWaitMs ?? 300_000);
    let job = await this.create(body, opts);
    for (let pause = opts.pollIntervalMs ?? 500; job.status !== 'completed'; pause = Math.min(pause * 1.5, 5000)) {
      if (job.status === 'failed') throw new PlauditError(`Export ${job.id} failed: ${job.error ?? 'unknown reason'}`);
      if (Date.now() > deadline) throw new PlauditError(`Export ${job.id} is still ${job.status}`);
      await wait(pause, opts.signal);
      job = await this.get(job.id, opts);
    }
    return job;
  }
}
