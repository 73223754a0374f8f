// What a call's answer said besides its body: a result keeps it (ApiPromise, pages), the client
// records the last one.
export interface RateLimit {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds at which the window resets. */
  readonly reset: number;
}

/** The answer a result came in. */
export interface ResponseInfo {
  readonly status: number;
  /** The API's `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The parsed `X-RateLimit-*` headers. */
  readonly rateLimit: RateLimit | null;
  readonly headers: Headers;
  /** Attempts the call took (1 without retries). */
  readonly attempts: number;
}
