// Lists: awaiting one gives a page ({ data, meta }); iterating it with `for await` walks every
// item of every page, fetching the next page only when the previous one is used up.
import type { PageMeta } from './types.ts';

export interface Page<T> {
  data: T[];
  meta: PageMeta;
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

  /** Every item of every page, in one array. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
