// The dashboard's one way to the API: same-origin fetches of /api/v1 with the session cookie,
// the CSRF token on every state change, and the contract's error body as a typed ApiError.
import type { components } from '../../sdk/src/generated/openapi.ts';

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

export interface RequestOptions {
  body?: unknown;
  /** A raw body (CSV text, say) sent as is. */
  raw?: BodyInit;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
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

/** Starts a GET now, for the request the page will make as soon as the session is known. */
export function prefetch(path: string, query?: RequestOptions['query']): void {
  const url = apiUrl(path, query);
  const res = fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  res.catch(() => {}); // an error surfaces when the page asks for it, not as an unhandled rejection
  early.set(url, res);
}

/** Drops reads started early: nobody was signed in, so their answers are refusals. */
export function forgetPrefetched(): void {
  early.clear();
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
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

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) =>
    request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>('POST', path, { body: body ?? {}, headers }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  delete: <T = void>(path: string) => request<T>('DELETE', path),
};

/** A list answer of the API: its items and where the page is. */
export interface Page<T> {
  data: T[];
  meta: { total: number; page: number; limit: number; totalPages: number };
}
