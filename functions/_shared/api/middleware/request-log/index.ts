import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';

export type LogLine = Record<string, unknown>;

export interface RequestLogOptions {
  /** Where lines go; one JSON object per line on stdout by default. */
  write?: (line: LogLine) => void;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** How long a line may wait for the lines after it, and how much may wait, before a write. */
export const LOG_FLUSH_MS = 50;
export const LOG_FLUSH_CHARS = 32 * 1024;

/**
 * A writer of JSON lines that writes the lines of the next 50 ms (or 32 KiB) to `sink` in one
 * call, in order: on the machines measured, a write per line cost a keyed read ≈ 15 µs of the
 * API's CPU (docs/benchmarks.md). flush() writes what waits at once; the API calls it before it
 * exits.
 */
export function lineWriter(sink: (text: string) => void) {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink(text);
  };
  const write = (line: LogLine) => {
    pending += JSON.stringify(line) + '\n';
    if (pending.length >= LOG_FLUSH_CHARS) flush();
    else timer ??= setTimeout(flush, LOG_FLUSH_MS);
  };
  return { write, flush };
}

const encoder = new TextEncoder();

/**
 * Lines straight to the process's standard output, written whole: cheaper than console.log, whose
 * formatting of a batch cost a keyed read ≈ 9 µs more (side by side); for a process of its own
 * (npm start). A write to a closed output is dropped: Deno throws there where console.log is
 * silent, and the API must serve on.
 */
export function stdoutSink(text: string) {
  const bytes = encoder.encode(text);
  try {
    for (let written = 0; written < bytes.length;) written += Deno.stdout.writeSync(bytes.subarray(written));
  } catch {
    // Standard output is gone (a closed pipe): the lines have nowhere to go.
  }
}

/**
 * The default log (createApp's): a console.log per line, which every runtime collects (Supabase's
 * Edge Runtime, Node) and which loses nothing when a worker is stopped; an entry with a process of
 * its own writes through lineWriter(stdoutSink) instead (functions/api/index.ts).
 */
export const writeJsonLine = (line: LogLine) => console.log(JSON.stringify(line));

/** The request's id: the caller's X-Request-Id when it is a sane token, else a new one. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The one line logged per request (`started` is performance.now() at its start). */
export function requestLine(
  r: { method: string; route: string; status: number; started: number; requestId: string; keyPrefix: string | null },
): LogLine {
  return {
    time: new Date().toISOString(),
    level: r.status >= 500 ? 'error' : 'info',
    msg: 'request',
    method: r.method,
    route: r.route,
    status: r.status,
    ms: Math.round((performance.now() - r.started) * 100) / 100,
    request_id: r.requestId,
    key_prefix: r.keyPrefix,
  };
}

/** What the request log says of an answer: requestLine's facts. */
export type AnswerFacts = Parameters<typeof requestLine>[0];

/**
 * The envelope of every answer, on either path (requestLog's, and the fast reads'): the headers
 * every answer carries (nosniff, the request id) and the request's log line.
 */
export function sealAnswer(headers: Headers, facts: AnswerFacts, write: (line: LogLine) => void) {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('X-Request-Id', facts.requestId);
  write(requestLine(facts));
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token), and seals its
 * answer (sealAnswer): the id echoed, nosniff, one log line per request: method, route pattern,
 * status, duration, request id and the API key's display prefix. Never the key, a secret, a body
 * or an e-mail address: the route pattern is logged, not the path, so ids and slugs in paths stay
 * out of the log too.
 */
export function requestLog({ write = writeJsonLine }: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    await next();
    sealAnswer(c.res.headers, {
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      started,
      requestId,
      keyPrefix: c.get('caller')?.prefix ?? null,
    }, write);
  };
}
