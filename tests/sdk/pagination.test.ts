// Lists: one page when awaited, every item across pages when iterated.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { postReviews, type ReviewSpec } from '../helpers/reviews.ts';
import { PageRequest, type Plaudit, TO_ARRAY_LIMIT } from '../../sdk/src/index.ts';
import { client } from './helpers.ts';

let t: Tenant;
let plaudit: Plaudit;
let ids: string[];

beforeAll(async () => {
  t = await createTenant();
  plaudit = client(t, 'read');
  const form = await client(t, 'write').reviewForms.create({ name: 'Pages' });
  const specs: ReviewSpec[] = [5, 4, 5, 2, 4, 5, 1].map((rating, i) => [rating, null, `Review number ${i}`, `R${i}`]);
  ids = await postReviews(form.id, `sdk-pages-${t.org.id}`, specs);
});

describe('pagination', () => {
  it('awaiting a list gives one page with its meta', async () => {
    const page = await plaudit.reviews.list({ limit: 3 });
    expect(page.data).toHaveLength(3);
    expect(page.meta).toEqual({ total: 7, page: 1, limit: 3, totalPages: 3 });
    const third = await plaudit.reviews.list({ limit: 3, page: 3 });
    expect(third.data).toHaveLength(1);
    expect(third.meta.page).toBe(3);
  });

  it('for await walks every item of every page, newest first, one request per page', async () => {
    const seen: string[] = [];
    const requests: string[] = [];
    const counting = client(t, 'read', {
      fetch: (input, init) => {
        requests.push(String(input));
        return fetch(input, init);
      },
    });
    for await (const review of counting.reviews.list({ limit: 3 })) seen.push(review.id);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toEqual([...ids].reverse());
    expect(requests.map((u) => new URL(u).searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it('iterates with filters kept on every page, and from a later page on', async () => {
    const ratings: number[] = [];
    for await (const r of plaudit.reviews.list({ min_rating: 4, limit: 2 })) ratings.push(r.rating);
    expect(ratings.sort()).toEqual([4, 4, 5, 5, 5]);
    expect(await plaudit.reviews.list({ limit: 3, page: 2 }).toArray()).toHaveLength(4);
  });

  it('gives the pages themselves, and stops at an empty list', async () => {
    const sizes: number[] = [];
    for await (const page of plaudit.reviews.list({ limit: 3 }).pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 3, 1]);
    const empty = plaudit.reviews.list({ min_rating: 5, max_rating: 5, q: 'nothing-matches-this' });
    expect(await empty.toArray()).toEqual([]);
    expect((await empty).meta).toMatchObject({ total: 0, totalPages: 0 });
  });

  it('awaiting, then iterating, asks for the first page once', async () => {
    let calls = 0;
    const list = new PageRequest<number>(async (page) => {
      calls += 1;
      return { data: [page * 10, page * 10 + 1], meta: { total: 4, page, limit: 2, totalPages: 2 } };
    });
    expect((await list).data).toEqual([10, 11]);
    expect(await list.toArray()).toEqual([10, 11, 20, 21]);
    expect(calls).toBe(2);
    await expect(new PageRequest(() => Promise.reject(new Error('down'))).catch((e: Error) => e.message))
      .resolves.toBe('down');
  });

  it('every page it walks carries the answer it came in', async () => {
    const ids: (string | null | undefined)[] = [];
    for await (const page of plaudit.reviews.list({ limit: 3 }).pages()) ids.push(page.lastResponse?.requestId);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
  });
});

/** A list of `total` numbers, `limit` a page, counting the pages asked for; `claimed` is the total its meta says. */
function numbers(total: number, limit: number, claimed = total) {
  const asked: number[] = [];
  const list = new PageRequest<number>(async (page) => {
    asked.push(page);
    const from = (page - 1) * limit;
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => from + i);
    return { data, meta: { total: claimed, page, limit, totalPages: Math.ceil(claimed / limit) } };
  });
  return { list, asked };
}

describe('toArray is capped', () => {
  it('collects up to 10,000 items by default', async () => {
    expect(TO_ARRAY_LIMIT).toBe(10_000);
    const { list, asked } = numbers(10_000, 100);
    expect(await list.toArray()).toHaveLength(10_000);
    expect(asked).toHaveLength(100);
  });

  it('refuses a longer list as soon as its first page says so, with a clear error', async () => {
    const { list, asked } = numbers(10_001, 100);
    await expect(list.toArray()).rejects.toThrow(
      new RangeError(
        "The list holds more than 10000 items, toArray's limit: pass a higher one (toArray({ limit })), " +
          'or walk it with for await, which holds one page at a time',
      ),
    );
    expect(asked).toEqual([1]);
    expect(await list.toArray({ limit: 10_001 })).toHaveLength(10_001);
  });

  it('takes a limit of its own, counts from the page the list starts at, and Infinity lifts the cap', async () => {
    await expect(numbers(6, 2).list.toArray({ limit: 5 })).rejects.toBeInstanceOf(RangeError);
    expect(await numbers(6, 2).list.toArray({ limit: 6 })).toEqual([0, 1, 2, 3, 4, 5]);
    const fromPage2 = new PageRequest<number>(
      async (page) => ({ data: [page], meta: { total: 3, page, limit: 1, totalPages: 3 } }),
      2,
    );
    expect(await fromPage2.toArray({ limit: 2 })).toEqual([2, 3]);
    expect(await numbers(25_000, 100).list.toArray({ limit: Infinity })).toHaveLength(25_000);
    await expect(numbers(1, 1).list.toArray({ limit: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(numbers(1, 1).list.toArray({ limit: Number.NaN })).rejects.toBeInstanceOf(RangeError);
  });

  it('also stops a list whose meta undercounts it, once it has more items than the limit', async () => {
    const { list, asked } = numbers(7, 2, 4);
    // The meta says 4 items and 2 pages: the walk stops at page 2, within the limit.
    expect(await list.toArray({ limit: 4 })).toEqual([0, 1, 2, 3]);
    expect(asked).toEqual([1, 2]);
    const growing = new PageRequest<number>(async (page) => ({
      data: [page, page],
      meta: { total: 2, page, limit: 2, totalPages: page + 1 },
    }));
    await expect(growing.toArray({ limit: 5 })).rejects.toBeInstanceOf(RangeError);
  });

  it('with the real API, against a small limit', async () => {
    await expect(plaudit.reviews.list({ limit: 3 }).toArray({ limit: 6 })).rejects.toBeInstanceOf(RangeError);
    expect(await plaudit.reviews.list({ limit: 3 }).toArray({ limit: 7 })).toHaveLength(7);
  });
});
