import { expect, inject } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string;
  /** A multipart body; fetch writes its Content-Type with the boundary. */
  formData?: FormData;
  headers?: Record<string, string>;
  baseUrl?: string;
}

/** One HTTP request to the API under test; parses JSON bodies. */
export async function api<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | FormData | undefined = opts.formData ?? opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${opts.baseUrl ?? inject('apiUrl')}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

const isFieldError = (e: unknown) =>
  typeof e === 'object' && e !== null && Object.keys(e).sort().join() === 'code,field,message' &&
  Object.values(e).every((v) => typeof v === 'string' && v !== '');

/**
 * The contract's error body, for toEqual: status, status name, a message matching `message`, and
 * nothing else but, on a 400 or 422, the list of field errors.
 */
export function errorBody(status: number, error: string, message?: RegExp | string) {
  const core = { statusCode: status, error, message: message ? expect.stringMatching(message) : expect.any(String) };
  return expect.toSatisfy((actual: any) => {
    const { errors, ...rest } = actual ?? {};
    if (errors !== undefined && !((status === 400 || status === 422) && errors.length && errors.every(isFieldError))) {
      return false;
    }
    try {
      expect(rest).toEqual(core);
      return true;
    } catch {
      return false;
    }
  }, `an error body ${JSON.stringify({ statusCode: status, error, message: String(message ?? '…') })}`);
}

/** Waits until the current minute has at least `seconds` left, so a burst stays in one rate-limit window. */
export async function awayFromMinuteBoundary(seconds = 8) {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}
