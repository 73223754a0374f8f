// When to try a request again, and how long to wait first.

/** Methods that may be repeated safely; a POST only when it carries an Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function canRetry(method: string, idempotencyKey: string | undefined): boolean {
  return IDEMPOTENT.has(method) || (method === 'POST' && Boolean(idempotencyKey));
}

/** Answers worth another try: rate limited, request timeout, and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** A `Retry-After` longer than this is not waited for: the error is thrown instead. */
export const MAX_RETRY_AFTER_S = 60;
const BASE_MS = 500;
const MAX_MS = 8_000;

/**
 * Milliseconds to wait before retry number `attempt + 1`: what `Retry-After` asks when the
 * server said, otherwise exponential backoff (0.5 s, 1 s, 2 s … up to 8 s) with jitter that
 * takes off up to half, so that clients that failed together do not come back together.
 */
export function retryDelay(attempt: number, retryAfterSeconds: number | null, random: () => number): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds * 1000;
  const backoff = Math.min(MAX_MS, BASE_MS * 2 ** attempt);
  return Math.round(backoff * (1 - random() / 2));
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
