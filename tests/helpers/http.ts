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
  headers?: Record<string, string>;
  baseUrl?: string;
}

/** One HTTP request to the API under test; parses JSON bodies. */
export async function api<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
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

/** The contract's error body, for toEqual: status, status name, and a message matching `message`. */
export function errorBody(status: number, error: string, message?: RegExp | string) {
  return { statusCode: status, error, message: message ? expect.stringMatching(message) : expect.any(String) };
}
