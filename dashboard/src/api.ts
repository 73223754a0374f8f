// The dashboard's one way to the API: same-origin fetches of /api/v1 with the session cookie,
// the CSRF token on every state change, and the contract's error body as a typed ApiError.
import type { components } from '../../sdk/src/generated/openapi.ts';
import type { ApiPath, CallArgs, CallOptions, Method, PathWith, ResponseOf } from './api-types.ts';

export type { BodyOf, ResponseOf } from './api-types.ts';

export type Schemas = components['schemas'];
export type Review = Schemas['Review'];
export type Session = Schemas['Session'];
export type Membership = Schemas['Membership'];

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** An answer that is not 2xx: the status, the contract's message and, for 422, each field's problem. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }

  /** The message for one field, if the API named it. */
  field(name: string): string | undefined {
    return this.errors.find((e) => e.field === name)?.message;
  }
}

let csrfToken = '';
/** Called once the session is known: every POST, PUT, PATCH and DELETE sends it. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when the API says the session has ended (401), so the app can show the sign-in page. */
let onSignedOut: () => void = () => {};
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A path of the document with its placeholders filled: `/webhooks/{id}` with `{ id }` → `/webhooks/…`. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api/v1${path}${qs ? `?${qs}` : ''}`;
}

// Reads started before the app knew who is signed in (the page's first list, alongside
// GET /auth/session), each taken once by the first request for the same address.
const early = new Map<string, Promise<Response>>();

/** Starts a GET now, for the same call the page will make as soon as the session is known. */
export function prefetch<P extends PathWith<'get'>>(path: P, ...[options]: CallArgs<P, 'get'>): void {
  const url = apiUrl(fillPath(path, options?.params), options?.query);
  const res = fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  res.catch(() => {}); // an error surfaces when the page asks for it, not as an unhandled rejection
  early.set(url, res);
}

/** Drops reads started early: nobody was signed in, so their answers are refusals. */
export function forgetPrefetched(): void {
  early.clear();
}

async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body; // the browser writes multipart/form-data with its boundary
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const url = apiUrl(path, opts.query);
  const started = method === 'GET' ? early.get(url) : undefined;
  early.delete(url);
  let res: Response;
  try {
    res = await (started ?? fetch(url, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    }));
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch { /* a non-JSON answer stays text */ }
  if (!res.ok) {
    const err = (data ?? {}) as { message?: string | string[]; errors?: FieldError[] };
    const message = Array.isArray(err.message) ? err.message.join('; ') : err.message;
    const error = new ApiError(res.status, message ?? `The server answered ${res.status}`, err.errors ?? []);
    if (res.status === 401 && !path.startsWith('/auth/')) onSignedOut();
    throw error;
  }
  return data as T;
}

/** An Idempotency-Key: one per thing the person means to send, so a retry never sends it twice. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function call<P extends ApiPath, M extends Method>(
  method: M,
  path: P,
  options: Partial<CallOptions<P, M>> = {},
): Promise<ResponseOf<P, M>> {
  const { params, query, headers, signal } = options;
  // A POST without a body of its own sends {}, as the API's JSON routes expect one.
  const body = options.body ?? (method === 'post' ? {} : undefined);
  return request(method.toUpperCase(), fillPath(path, params), { query, body, headers, signal });
}

/** Sends a file (multipart/form-data) to a route that takes one, answering its JSON. */
export function upload<P extends PathWith<'post'>>(
  path: P,
  options: { params?: Partial<CallOptions<P, 'post'>>['params']; form: FormData },
): Promise<ResponseOf<P, 'post'>> {
  return request('POST', fillPath(path, options.params), { body: options.form });
}

/**
 * The API by path and method: `api.get('/organizations/{orgId}/webhooks/{id}', { params: { orgId, id } })`
 * answers a Webhook, checked against the OpenAPI document, as are the query's names and the body.
 */
export const api = {
  get: <P extends PathWith<'get'>>(path: P, ...[options]: CallArgs<P, 'get'>) => call('get', path, options),
  post: <P extends PathWith<'post'>>(path: P, ...[options]: CallArgs<P, 'post'>) => call('post', path, options),
  put: <P extends PathWith<'put'>>(path: P, ...[options]: CallArgs<P, 'put'>) => call('put', path, options),
  patch: <P extends PathWith<'patch'>>(path: P, ...[options]: CallArgs<P, 'patch'>) => call('patch', path, options),
  delete: <P extends PathWith<'delete'>>(path: P, ...[options]: CallArgs<P, 'delete'>) => call('delete', path, options),
};

/** Where one item of an organization is in the API's paths: their `{orgId}` and `{id}`. */
export interface ItemIds {
  orgId: string;
  id: string;
}

/** Where a list answer's page is: the same for every list of the API. */
export type PageMeta = ResponseOf<'/organizations/{orgId}/reviews', 'get'>['meta'];
