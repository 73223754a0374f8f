// Every review's language: told from its text at submission and at import, filtered on by the
// organization's list and the public lists, and the reader's language first in the public lists
// and the pages (`reader_language`, `Accept-Language`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import { createProduct } from '../../helpers/products.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const server = ownApiServer();
const call = server.call;
/** An API whose operator switched detection off (REVIEW_LANGUAGES=off). */
const undetecting = ownApiServer({ REVIEW_LANGUAGES: 'off' });

const TEXTS = {
  de: ['Sehr zufrieden', 'Die Lieferung kam schnell und alles war bestens verpackt.'],
  en: ['Great value', 'Arrived quickly and works exactly as described. Would buy again.'],
  fr: ['Très bien', 'Le produit est arrivé rapidement et fonctionne très bien.'],
} as const;

let t: Tenant;
let worker: TestWorker;
/** The reviews of the business, oldest first: German, English, French, one too short to tell, English. */
const made: { id: string; language: string | null }[] = [];
let productReviews: { id: string; language: string | null }[] = [];
let productExternalId: string;

beforeAll(async () => {
  t = await createTenant();
  worker = await startWorker([t.org.id]);
  const form = await createForm(call, t);
  for (
    const [lang, title, content] of [
      ['de', ...TEXTS.de],
      ['en', ...TEXTS.en],
      ['fr', ...TEXTS.fr],
      [null, null, 'Good'],
      ['en', 'Nice', 'The colour is lovely and it feels solid in the hand.'],
    ] as const
  ) {
    const r = await submitOk(call, form.id, { title, content });
    made.push({ id: r.id, language: lang });
  }
  const product = await createProduct(call, t);
  productExternalId = product.external_id;
  productReviews = [];
  // Texts of their own: a text 90 % alike to another review's is held as a duplicate.
  for (
    const [lang, title, content] of [
      ['en', 'Lovely mug', 'Keeps the coffee warm for ages and looks even better than in the pictures.'],
      ['de', 'Schöne Tasse', 'Die Glasur ist wunderschön und der Becher liegt gut in der Hand.'],
      ['en', 'Solid', 'The handle sits well in the hand and the glaze has not chipped after months of use.'],
    ] as const
  ) {
    const r = await submitOk(call, form.id, { title, content, product_external_id: product.external_id });
    productReviews.push({ id: r.id, language: lang });
  }
});
afterAll(async () => {
  await worker?.stop();
});

const ids = (list: { id: string }[]) => list.map((r) => r.id);
const orgReviews = (query = '') =>
  call('GET', `/api/v1/organizations/${t.org.id}/reviews${query}`, { key: t.keys.read });

describe('a submitted review', () => {
  it('carries the language its title and text are written in, null when too short to tell', async () => {
    for (const m of made) {
      const res = await call('GET', `/api/v1/organizations/${t.org.id}/reviews/${m.id}`, { key: t.keys.read });
      expect(res.status).toBe(200);
      expect(res.body.language).toBe(m.language);
    }
  });
});

describe('with REVIEW_LANGUAGES=off', () => {
  it('a submitted review carries no language, whatever its text', async () => {
    // A business of its own: the lists below read every review of `t`.
    const tenant = await createTenant();
    const form = await createForm(undetecting.call, tenant);
    const r = await submitOk(undetecting.call, form.id, { title: TEXTS.de[0], content: TEXTS.de[1] });
    expect(r.language).toBeNull();
    const res = await call('GET', `/api/v1/organizations/${tenant.org.id}/reviews/${r.id}`, {
      key: tenant.keys.read,
    });
    expect(res.body.language).toBeNull();
  });
});

describe("the organization's list", () => {
  it('filters by language', async () => {
    const de = await orgReviews('?language=de');
    expect(de.status).toBe(200);
    expect(ids(de.body.data)).toEqual([productReviews[1].id, made[0].id]);
    expect(de.body.meta.total).toBe(2);
    const en = await orgReviews('?language=EN');
    expect(new Set(ids(en.body.data))).toEqual(
      new Set([made[1].id, made[4].id, productReviews[0].id, productReviews[2].id]),
    );
    const bad = await orgReviews('?language=english');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorBody(400, 'Bad Request', /language/));
  });
});

describe('the public lists', () => {
  const feed = (query = '') => call('GET', `/api/v1/public/profiles/${t.org.slug}/reviews${query}`);

  it('carry each review its language', async () => {
    const res = await feed();
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string; language: string | null }) => [r.id, r.language])).toEqual(
      made.map((m) => [m.id, m.language]).reverse(),
    );
  });

  it('filter by language, counting only those', async () => {
    const res = await feed('?language=fr');
    expect(ids(res.body.data)).toEqual([made[2].id]);
    expect(res.body.meta.total).toBe(1);
    const embed = await call('GET', `/api/v1/public/reviews/${t.org.slug}?language=en`);
    expect(embed.status).toBe(200);
    expect(ids(embed.body.data)).toEqual([made[4].id, made[1].id]);
    expect(embed.body.meta.total).toBe(2);
  });

  it("put the reader's language first (and what is too short to tell), each part newest first, and page across them", async () => {
    const res = await feed('?reader_language=en');
    expect(ids(res.body.data)).toEqual([made[4].id, made[3].id, made[1].id, made[2].id, made[0].id]);
    expect(res.body.meta.total).toBe(5);
    const second = await feed('?reader_language=en&limit=2&page=2');
    expect(ids(second.body.data)).toEqual([made[1].id, made[2].id]);
    const oldest = await feed('?reader_language=fr&sort=oldest');
    expect(ids(oldest.body.data)).toEqual([made[2].id, made[3].id, made[0].id, made[1].id, made[4].id]);
  });

  it("order a product's reviews the same way", async () => {
    const path = `/api/v1/public/products/${t.org.slug}/${encodeURIComponent(productExternalId)}/reviews`;
    const plain = await call('GET', path);
    expect(ids(plain.body.data)).toEqual(ids(productReviews).reverse());
    const german = await call('GET', `${path}?reader_language=de`);
    expect(ids(german.body.data)).toEqual([productReviews[1].id, productReviews[2].id, productReviews[0].id]);
    const only = await call('GET', `${path}?language=de`);
    expect(ids(only.body.data)).toEqual([productReviews[1].id]);
    expect(only.body.meta.total).toBe(1);
  });

  it('answer 400 for a language that is not a two-letter code', async () => {
    const bad = await feed('?reader_language=deu');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorBody(400, 'Bad Request', /reader_language/));
  });
});

describe('the pages', () => {
  it("show the reader's language first (Accept-Language) and label the others", async () => {
    const res = await fetch(`${server.url}/p/${t.org.slug}`, {
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/Accept-Language/i);
    const html = await res.text();
    const order = made.map((m) => html.indexOf(`id="review-${m.id}"`));
    expect(order.every((i) => i > 0)).toBe(true);
    // German first, then the rest newest first.
    expect(order[0]).toBeLessThan(order[4]);
    expect(order[4]).toBeLessThan(order[1]);
    const article = (id: string) => html.slice(html.indexOf(`id="review-${id}"`)).split('</article>')[0];
    expect(article(made[0].id)).not.toContain('Written in');
    expect(article(made[0].id)).toContain('lang="de"');
    expect(article(made[1].id)).toContain('Written in English');
    expect(article(made[2].id)).toContain('Written in French');
    expect(article(made[3].id)).not.toContain('Written in');
  });
});

describe('an imported review', () => {
  it('carries the language the import reader told', async () => {
    const csv = 'Review Title,Review Content,Review Score,Date,Display Name\n' +
      ',Sehr zufrieden mit der Lieferung und der Qualität.,5,2024-03-01,Jo\n' +
      'Superbe,Le produit est arrivé rapidement et fonctionne très bien.,4,2024-03-02,Lu\n' +
      'Ok,Fine,3,2024-03-03,Al\n';
    const tenant = await createTenant();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'reviews.csv');
    const posted = await fetch(`${server.url}/api/v1/organizations/${tenant.org.id}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.write}` },
      body: form,
    });
    expect(posted.status).toBe(202);
    const { id } = await posted.json();
    const importWorker = await startWorker([tenant.org.id]);
    try {
      await eventually(
        async () => {
          const res = await api('GET', `/api/v1/organizations/${tenant.org.id}/imports/${id}`, {
            key: tenant.keys.read,
            baseUrl: server.url,
          });
          return res.body.status === 'completed' && res.body;
        },
        60_000,
        'the import to finish',
      );
    } finally {
      await importWorker.stop();
    }
    const list = await api('GET', `/api/v1/organizations/${tenant.org.id}/reviews?limit=10`, {
      key: tenant.keys.read,
      baseUrl: server.url,
    });
    expect(list.body.data.map((r: { rating: number; language: string | null }) => [r.rating, r.language]))
      .toEqual([[3, null], [4, 'fr'], [5, 'de']]);
  });
});
