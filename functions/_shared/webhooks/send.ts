// Sends one webhook attempt: checks the URL against the SSRF rules again (DNS answers change),
// POSTs the stored body with its signatures, follows no redirect, gives up after the timeout,
// and classifies the answer.
import type { Environment } from '../config.ts';
import { assertSafeWebhookUrl, type Resolver, UnsafeUrlError } from '../net/ssrf.ts';
import { parseRetryAfter } from './retry.ts';

export const USER_AGENT = 'Plaudit-Webhooks/1.0';

/** A delivery as the claim functions answer it, signed for this attempt. */
export interface SignedDelivery {
  id: string;
  claim_token: string;
  org_id: string;
  endpoint_id: string;
  url: string;
  event_type: string;
  message_id: string;
  payload: string;
  attempt: number;
  schedule_step: number;
  is_test: boolean;
  webhook_timestamp: string | number;
  signature_hex: string;
  previous_signature_hex: string | null;
  webhook_signature: string;
}

export interface AttemptResult {
  outcome: 'succeeded' | 'gone' | 'retry';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
  retryAfterMs: number | null;
}

export interface SendOptions {
  environment: Environment;
  timeoutMs: number;
  resolve: Resolver;
  fetch?: typeof fetch;
}

export function deliveryHeaders(d: SignedDelivery): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-webhook-signature': d.signature_hex,
    'webhook-id': d.message_id,
    'webhook-timestamp': String(d.webhook_timestamp),
    'webhook-signature': d.webhook_signature,
    'x-webhook-event': d.event_type,
    'x-webhook-attempt': String(d.attempt),
  };
  if (d.previous_signature_hex) headers['x-webhook-signature-previous'] = d.previous_signature_hex;
  return headers;
}

const SNIPPET_BYTES = 1024;

async function readSnippet(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all.subarray(0, SNIPPET_BYTES)).replace(/\uFFFD+$/, '');
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 1000);
}

export async function sendDelivery(d: SignedDelivery, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string, statusCode: number | null = null): AttemptResult => ({
    outcome: 'retry', statusCode, durationMs: elapsed(), error, responseSnippet: null, retryAfterMs: null,
  });
  try {
    await assertSafeWebhookUrl(d.url, { environment: opts.environment, resolve: opts.resolve });
  } catch (err) {
    if (err instanceof UnsafeUrlError) return fail(`refused to call the URL: it ${err.message}`);
    return fail(describe(err, opts.timeoutMs));
  }
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await (opts.fetch ?? fetch)(d.url, {
      method: 'POST',
      headers: deliveryHeaders(d),
      body: d.payload,
      redirect: 'manual',
      signal,
    });
    const snippet = await readSnippet(res);
    const status = res.status;
    const result: AttemptResult = {
      outcome: status >= 200 && status < 300 ? 'succeeded' : status === 410 ? 'gone' : 'retry',
      statusCode: status,
      durationMs: elapsed(),
      error: null,
      responseSnippet: snippet,
      retryAfterMs: null,
    };
    if (result.outcome === 'retry') {
      result.error = status >= 300 && status < 400
        ? `redirect (${status}) not followed${res.headers.get('location') ? ` to ${res.headers.get('location')!.slice(0, 200)}` : ''}`
        : `answered ${status}`;
      result.retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    }
    return result;
  } catch (err) {
    return fail(describe(err, opts.timeoutMs));
  }
}
