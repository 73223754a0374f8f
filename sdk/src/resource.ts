// What every resource shares: path parameters (the organization filled in), calls and lists.
import { ApiPromise, type WithResponse } from './api-promise.ts';
import type { Http, RequestOptions } from './http.ts';
import { PageRequest } from './pagination.ts';
import type { ItemOf, Method, Path, ResponseOf } from './types.ts';

export interface Core {
  readonly http: Http;
  /** The organization of the calls: the one given, or the key's own (asked once). */
  organizationId(opts?: RequestOptions): Promise<string>;
}

export interface CallInit {
  query?: object;
  body?: unknown;
  /** false: a public route (no key). */
  auth?: boolean;
  stream?: boolean;
}

export abstract class Resource {
  protected readonly core: Core;

  constructor(core: Core) {
    this.core = core;
  }

  protected call<P extends Path, M extends Method>(
    method: M,
    path: P,
    params: Record<string, string> = {},
    init: CallInit = {},
    opts?: RequestOptions,
  ): ApiPromise<ResponseOf<P, M>> {
    return new ApiPromise(this.#send(method, path, params, init, opts));
  }

  async #send<T>(
    method: Method,
    path: Path,
    params: Record<string, string>,
    init: CallInit,
    opts?: RequestOptions,
  ): Promise<WithResponse<T>> {
    const orgId = path.includes('{orgId}') ? await this.core.organizationId(opts) : '';
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = name === 'orgId' ? orgId : params[name];
      if (!value) throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    return this.core.http.send({ method: method.toUpperCase(), path: filled, ...init }, opts);
  }

  protected paged<P extends Path>(
    path: P,
    params: Record<string, string>,
    query: { page?: number } = {},
    opts?: RequestOptions,
    auth?: boolean,
  ): PageRequest<ItemOf<P>> {
    return new PageRequest(
      (page) => this.call('get', path, params, { query: { ...query, page }, auth }, opts) as never,
      query.page ?? 1,
    );
  }
}
