// Sends one webhook attempt: checks the URL against the SSRF rules again (DNS answers change),
// POSTs the stored body with its signatures to the very addresses just checked, follows no
// redirect, gives up after the timeout, and classifies the answer.
import type { Environment } from '../config.ts';
import { pinnedPost } from '../net/pinned-post.ts';
import { checkWebhookUrl, type Resolver, UnsafeUrlError } from '../net/ssrf.ts';
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

function describe(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).slice(0, 1000);
}

export async function sendDelivery(d: SignedDelivery, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string, statusCode: number | null = null): AttemptResult => ({
    outcome: 'retry',
    statusCode,
    durationMs: elapsed(),
    error,
    responseSnippet: null,
    retryAfterMs: null,
  });
  let target;
  try {
    target = await checkWebhookUrl(d.url, { environment: opts.environment, resolve: opts.resolve });
  } catch (err) {
    if (err instanceof UnsafeUrlError) return fail(`refused to call the URL: it ${err.message}`);
    return fail(describe(err));
  }
  try {
    const res = await pinnedPost(target.url, {
      headers: deliveryHeaders(d),
      body: d.payload,
      timeoutMs: opts.timeoutMs,
      addresses: target.addresses,
      snippetBytes: SNIPPET_BYTES,
    });
    const status = res.status;
    const result: AttemptResult = {
      outcome: status >= 200 && status < 300 ? 'succeeded' : status === 410 ? 'gone' : 'retry',
      statusCode: status,
      durationMs: elapsed(),
      error: null,
      responseSnippet: res.snippet,
      retryAfterMs: null,
    };
    if (result.outcome === 'retry') {
      result.error = status >= 300 && status < 400
        ? `redirect (${status}) not followed${
          res.header('location') ? ` to ${res.header('location')!.slice(0, 200)}` : ''
        }`
        : `answered ${status}`;
      result.retryAfterMs = parseRetryAfter(res.header('retry-after'));
    }
    return result;
  } catch (err) {
    return fail(describe(err));
  }
}
