// Lists: awaiting one gives a page ({ data, meta }); iterating it with `for await` walks every
// item of every page, fetching the next page only when the previous one is used up.
import type { ResponseInfo } from './response-info.ts';
import type { PageMeta } from './types.ts';

export interface Page<T> {
  data: T[];
  meta: PageMeta;
  /** The answer this page came in (non-enumerable; every page the SDK fetches has it). */
  readonly lastResponse?: ResponseInfo;
}

/** How many items `toArray()` collects at most unless told otherwise. */
export const TO_ARRAY_LIMIT = 10_000;

export interface ToArrayOptions {
  /**
   * The most items to collect (10,000 by default; `Infinity` for no cap). A longer list throws a
   * RangeError, as soon as its first page says so, instead of filling the memory.
   */
  limit?: number;
}

export type FetchPage<T> = (page: number) => Promise<Page<T>>;

export class PageRequest<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetch: FetchPage<T>;
  readonly #start: number;
  #first: Promise<Page<T>> | undefined;

  constructor(fetchPage: FetchPage<T>, startPage = 1) {
    this.#fetch = fetchPage;
    this.#start = startPage;
  }

  #firstPage(): Promise<Page<T>> {
    return (this.#first ??= this.#fetch(this.#start));
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    // deno-lint-ignore no-explicit-any -- as Promise#then types it
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  // deno-lint-ignore no-explicit-any -- as Promise#catch types it
  catch<B = never>(onRejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#firstPage().catch(onRejected);
  }

  /** Every page from the first one asked for to the last. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let number = this.#start;
    let page = await this.#firstPage();
    for (;;) {
      yield page;
      if (page.data.length === 0 || number >= page.meta.totalPages) return;
      page = await this.#fetch(++number);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item of every page, in one array: at most `limit` (10,000 by default), else a RangeError. */
  async toArray({ limit = TO_ARRAY_LIMIT }: ToArrayOptions = {}): Promise<T[]> {
    if (!(limit >= 0)) throw new RangeError(`toArray's limit must be a number from 0 up, not ${limit}`);
    const all: T[] = [];
    for await (const page of this.pages()) {
      // The items from here to the end, as this page's meta counts them (NaN without one).
      const expected = all.length + page.meta.total - (page.meta.page - 1) * page.meta.limit;
      if (all.length + page.data.length > limit || expected > limit) {
        throw new RangeError(
          `The list holds more than ${limit} items, toArray's limit: pass a higher one (toArray({ limit })), ` +
            'or walk it with for await, which holds one page at a time',
        );
      }
      all.push(...page.data);
    }
    return all;
  }
}
