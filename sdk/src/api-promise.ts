// What every call answers: a promise of its result that can also give the answer's metadata
// (`withResponse()`), so that concurrent calls never read each other's status or headers.
import type { ResponseInfo } from './response-info.ts';

/** A result with the answer it came in. */
export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/** An object result carries its own answer as a non-enumerable `lastResponse` (not serialized). */
export type WithLastResponse<T> = T extends object ? T & { readonly lastResponse: ResponseInfo } : T;

/** Gives `data` its non-enumerable `lastResponse`, when it is an object. */
export function attachResponse<T>(data: T, response: ResponseInfo): WithLastResponse<T> {
  if (data !== null && typeof data === 'object') {
    Object.defineProperty(data, 'lastResponse', { value: response, enumerable: false, configurable: true });
  }
  return data as WithLastResponse<T>;
}

/**
 * A promise of a call's result, `await`ed as usual, plus `withResponse()`: the result and the
 * answer's status, headers and request id together. The call starts at once; its outcome is
 * handed over only through `then` (so a caller that only asks `withResponse()` sees no unhandled
 * rejection of the plain promise).
 */
export class ApiPromise<T> extends Promise<WithLastResponse<T>> {
  readonly #sent: Promise<WithResponse<WithLastResponse<T>>>;

  constructor(sent: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as never));
    this.#sent = sent.then(({ data, response }) => ({ data: attachResponse(data, response), response }));
  }

  // The promises that then, catch and finally answer are plain ones.
  static override readonly [Symbol.species] = Promise;

  /** The result and its answer: `{ data, response: { status, headers, requestId, rateLimit, attempts } }`. */
  withResponse(): Promise<WithResponse<WithLastResponse<T>>> {
    return this.#sent;
  }

  override then<A = WithLastResponse<T>, B = never>(
    onFulfilled?: ((value: WithLastResponse<T>) => A | PromiseLike<A>) | null,
    // deno-lint-ignore no-explicit-any -- as Promise#then types it
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#sent.then((r) => r.data).then(onFulfilled, onRejected);
  }
}
