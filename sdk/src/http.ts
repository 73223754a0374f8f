// One API call over fetch: URL and headers, the API key, timeouts, retries with backoff,
// idempotency keys, errors, and the answer's status and headers beside its result.
import type { WithResponse } from './api-promise.ts';
import type { RateLimit, ResponseInfo } from './response-info.ts';
import { APIConnectionError, errorFromResponse, parseRetryAfter, TimeoutError } from './errors.ts';
import { canRetry, isRetryableStatus, MAX_RETRY_AFTER_S, retryDelay, sleep } from './retry.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:54321';

export type { RateLimit, ResponseInfo };

export interface HttpOptions {
  /** An API key, `rk_…`. Only public routes work without one. Keep it on the server. */
  apiKey?: string;
  /** Where the service is: `https://reviews.example.com` (a trailing `/api/v1` is allowed). */
  baseUrl?: string;
  /** Per attempt, in milliseconds; 30 s by default. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a network error; 2 by default. */
  maxRetries?: number;
  /** A fetch of your own (a proxy, a test double, an older runtime). */
  fetch?: typeof fetch;
  /** Waits between retries; replaceable in tests so that they never wait in real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of the retry jitter, 0 ≤ n < 1. */
  random?: () => number;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Cancels the call, retries included. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /**
   * POST only: the `Idempotency-Key` sent (and reused by every retry). A random one by default
   * on authenticated POSTs; `false` sends none, and then the POST is never retried.
   */
  idempotencyKey?: string | false;
  headers?: Record<string, string>;
}

export interface ApiRequest {
  method: string;
  path: string;
  query?: object;
  body?: unknown;
  /** false: a public route; no API key, no automatic Idempotency-Key. */
  auth?: boolean;
  /** Answer the body as a stream instead of parsed JSON. */
  stream?: boolean;
}

type Query = Record<string, string | number | boolean | null | undefined>;

function rateLimitOf(h: Headers): RateLimit | null {
  const limit = h.get('x-ratelimit-limit');
  if (limit === null) return null;
  return Object.freeze({
    limit: Number(limit),
    remaining: Number(h.get('x-ratelimit-remaining')),
    reset: Number(h.get('x-ratelimit-reset')),
  });
}

/** A successful answer's result: its stream, nothing (204), its JSON, or its text when it is not JSON. */
function parseBody<T>(res: Response, text: string, stream: boolean): T {
  if (stream) return res.body as T;
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

export class Http {
  readonly baseUrl: string;
  readonly #o: HttpOptions;
  #last: ResponseInfo | null = null;

  constructor(options: HttpOptions = {}) {
    this.#o = options;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  }

  url(path: string, query?: object): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries((query ?? {}) as Query)) if (v != null) params.append(k, String(v));
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /**
   * The answer of the call that finished last, whichever it was: with calls in flight together it
   * may be another's than the one just awaited. Use each result's own (`withResponse()`).
   */
  get lastResponse(): ResponseInfo | null {
    return this.#last;
  }

  /** The parsed result of a call. */
  async request<T>(req: ApiRequest, opts: RequestOptions = {}): Promise<T> {
    return (await this.send<T>(req, opts)).data;
  }

  /** The parsed result of a call, and the answer it came in. */
  async send<T>(req: ApiRequest, opts: RequestOptions = {}): Promise<WithResponse<T>> {
    const o = this.#o;
    const { method } = req;
    const auth = req.auth !== false;
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (auth && o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    let body: string | FormData | undefined;
    if (req.body instanceof FormData) {
      body = req.body; // fetch writes multipart/form-data with its boundary
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    let key = opts.idempotencyKey || undefined;
    if (method === 'POST' && auth && opts.idempotencyKey === undefined) key = crypto.randomUUID();
    if (key && method === 'POST') headers['idempotency-key'] = key;
    const maxRetries = canRetry(method, key) ? opts.maxRetries ?? o.maxRetries ?? 2 : 0;
    const wait = o.sleep ?? sleep;
    const url = this.url(req.path, req.query);

    for (let attempt = 0;; attempt++) {
      let res: Response;
      let text = '';
      try {
        [res, text] = await this.#attempt(url, { method, headers, body }, req.stream === true, opts);
      } catch (err) {
        if (opts.signal?.aborted || attempt >= maxRetries) throw err;
        await wait(retryDelay(attempt, null, o.random ?? Math.random), opts.signal);
        continue;
      }
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (
        !res.ok && attempt < maxRetries && isRetryableStatus(res.status) && (retryAfter ?? 0) <= MAX_RETRY_AFTER_S
      ) {
        await wait(retryDelay(attempt, retryAfter, o.random ?? Math.random), opts.signal);
        continue;
      }
      // Frozen: the same object is every reader's, the client's latest included.
      const response: ResponseInfo = Object.freeze({
        status: res.status,
        requestId: res.headers.get('x-request-id'),
        rateLimit: rateLimitOf(res.headers),
        headers: res.headers,
        attempts: attempt + 1,
      });
      this.#last = response;
      if (!res.ok) throw errorFromResponse(res.status, res.headers, text);
      return { data: parseBody<T>(res, text, req.stream === true), response };
    }
  }

  /** One attempt: the answer, and its text unless it is a successful stream. */
  async #attempt(
    url: string,
    init: RequestInit,
    stream: boolean,
    opts: RequestOptions,
  ): Promise<[Response, string]> {
    const timeoutMs = opts.timeoutMs ?? this.#o.timeoutMs ?? 30_000;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(opts.signal!.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let streaming = false;
    try {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const res = await (this.#o.fetch ?? fetch)(url, { ...init, signal: controller.signal });
      // A stream's body is read by the caller, after this attempt's timer is gone (the signal
      // still cancels it).
      streaming = stream && res.ok;
      return [res, streaming ? '' : await res.text()];
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (timedOut) throw new TimeoutError(`No answer within ${timeoutMs} ms`, { cause: err });
      throw new APIConnectionError(`Connection failed: ${(err as Error)?.message ?? err}`, { cause: err });
    } finally {
      clearTimeout(timer);
      if (!streaming) opts.signal?.removeEventListener('abort', onAbort);
    }
  }
}
