// Lists: one page when awaited, every item across pages when iterated.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { postReviews, type ReviewSpec } from '../helpers/reviews.ts';
import { PageRequest, type Plaudit } from '../../sdk/src/index.ts';
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
});
