// Review requests that name products, over HTTP: the routes take `products` and answer them on
// every route that answers a request, refusals name products[i], and the request's page takes one
// review per subject (each product and the business), each verified by the invitation.
import { describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, postForm, requestsPath } from '../../helpers/review-requests.ts';
import { inject } from 'vitest';

async function addProduct(t: Tenant, body: Record<string, unknown>) {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}/products`, { key: t.keys.write, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; external_id: string; name: string };
}

/** A tenant with a form and a catalog: two products (one named with markup), an archived one. */
async function shop() {
  const t = await createTenant();
  const form = await createForm(t);
  await addProduct(t, { external_id: 'MUG', name: 'Mug <b>Blue</b>', image_url: 'https://img.example/mug.png' });
  await addProduct(t, { external_id: 'TEE', name: 'Tee' });
  await addProduct(t, { external_id: 'OLD', name: 'Old mug', archived: true });
  return { t, form };
}

const request = (form: { id: string }, extra: Record<string, unknown> = {}) => ({
  email: 'ada@example.com',
  name: 'Ada',
  form_id: form.id,
  ...extra,
});

describe('review requests with products: the routes', () => {
  it('answer `products` in order on create, get, list and bulk, and [] for a request without', async () => {
    const { t, form } = await shop();
    const created = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: request(form, { products: ['TEE', ' MUG '], external_id: 'o-1' }),
    });
    expect(created.status).toBe(201);
    const named = [{ external_id: 'TEE', name: 'Tee' }, { external_id: 'MUG', name: 'Mug <b>Blue</b>' }];
    expect(created.body.products).toEqual(named);
    expect((await api('GET', requestsPath(t, `/${created.body.id}`), { key: t.keys.read })).body.products)
      .toEqual(named);

    const bulk = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: [request(form, { email: 'bo@example.com', products: ['MUG'] }), request(form)] },
    });
    expect(bulk.status).toBe(202);
    expect(bulk.body.data.map((r: { products: unknown }) => r.products)).toEqual([
      [{ external_id: 'MUG', name: 'Mug <b>Blue</b>' }],
      [],
    ]);
    const list = await api('GET', requestsPath(t), { key: t.keys.read });
    const byEmail = Object.fromEntries(
      list.body.data.map((r: { email: string; products: unknown }) => [r.email, r.products]),
    );
    expect(byEmail).toMatchObject({ 'ada@example.com': expect.anything(), 'bo@example.com': expect.anything() });
    expect(list.body.data.find((r: { id: string }) => r.id === created.body.id).products).toEqual(named);
  });

  it("refuse an unknown, archived, repeated or other organization's product, naming products[i]", async () => {
    const { t, form } = await shop();
    const other = await createTenant();
    await addProduct(other, { external_id: 'THEIRS', name: 'Their mug' });
    const single = async (products: unknown) =>
      await api('POST', requestsPath(t), { key: t.keys.write, body: request(form, { products }) });

    const cases: [unknown, string][] = [
      [['MUG', 'NOPE'], 'products[1]: no such product in this organization'],
      [['THEIRS'], 'products[0]: no such product in this organization'],
      [['TEE', 'OLD'], 'products[1]: the product is archived and takes no new reviews'],
      [['MUG', 'TEE', 'MUG'], 'products[2]: repeats products[0]'],
    ];
    for (const [products, message] of cases) {
      const res = await single(products);
      expect(res.status, message).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity', message });
    }
    for (const products of [[], Array.from({ length: 21 }, (_, i) => `P-${i}`), [''], 'MUG']) {
      const res = await single(products);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toMatch(/^products/);
    }

    const bulk = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: {
        requests: [
          request(form, { products: ['MUG'] }),
          request(form, { email: 'x@example.com', products: ['OLD'] }),
          request(form, { email: 'y@example.com', products: [] }),
          request(form, { email: 'z@example.com', products: ['THEIRS'] }),
        ],
      },
    });
    expect(bulk.body.accepted).toBe(1);
    expect(bulk.body.rejected).toEqual([
      { index: 1, message: 'products[0]: the product is archived and takes no new reviews' },
      { index: 2, message: expect.stringMatching(/^products: /) },
      { index: 3, message: 'products[0]: no such product in this organization' },
    ]);
    // Nothing was stored or mailed for the refused rows.
    const [{ n }] = await db`select count(*)::int as n from plaudit.review_requests where org_id = ${t.org.id}`;
    expect(n).toBe(1);
  });
});

const page = (token: string) => `${inject('apiUrl')}/r/${token}`;

async function tokenOf(id: string) {
  const [{ token }] = await db`select plaudit.review_request_token(${id}) as token`;
  return token as string;
}

const review = (content: string, product?: string) => ({
  rating: '5',
  content,
  reviewer_name: 'Ada',
  reviewer_email: 'ada@example.com',
  ...(product ? { product } : {}),
});

describe('review requests with products: the page', () => {
  it('asks about each product and the business, one review each, each verified by the invitation', async () => {
    const { t, form } = await shop();
    const created = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: request(form, { products: ['MUG', 'TEE'] }),
    });
    const token = await tokenOf(created.body.id);

    const first = await (await fetch(page(token))).text();
    // A form per subject, in order, and the product's name as text.
    expect(first.match(/<form /g)).toHaveLength(3);
    expect(first).toContain('<h2 id="subject-1-title">Mug &lt;b&gt;Blue&lt;/b&gt;</h2>');
    expect(first).toContain('<img src="https://img.example/mug.png" alt="Mug &lt;b&gt;Blue&lt;/b&gt;"');
    expect(first).toContain('<h2 id="subject-2-title">Tee</h2>');
    expect(first).toContain(`<h2 id="subject-3-title">Your experience with ${t.org.name}</h2>`);
    expect(first).toContain('<input type="hidden" name="product" value="MUG">');
    expect(first).not.toContain('<b>Blue');

    // A form with a mistake comes back with its errors in its own section.
    const invalid = await postForm(page(token), { ...review(''), product: 'TEE' });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toContain('id="subject-2-f-content" name="content" aria-invalid="true"');

    const sent = await postForm(page(token), review('A lovely mug.', 'MUG'));
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/r/${token}?c=1#subject-1`);
    const again = await (await fetch(page(token) + '?c=1')).text();
    expect(again).toContain('Thank you — your review of Mug &lt;b&gt;Blue&lt;/b&gt; is in.');
    expect(again.match(/<form /g)).toHaveLength(2);

    // The same subject twice, and a product the request does not name, are refused.
    const twice = await postForm(page(token), review('Still lovely.', 'MUG'));
    expect(twice.status).toBe(409);
    expect(twice.body).toContain('Your review of Mug &lt;b&gt;Blue&lt;/b&gt; is in already');
    const unnamed = await postForm(page(token), review('What cap?', 'CAP'));
    expect(unnamed.status).toBe(422);
    expect(unnamed.body).toContain('This product is not part of your request');

    expect((await postForm(page(token), review('Friendly shop.'))).status).toBe(303);
    // The same words about another subject are another review, not a duplicate.
    expect((await postForm(page(token), review('A lovely mug.', 'TEE'))).status).toBe(303);
    const done = await fetch(page(token) + '?c=1');
    expect(await done.text()).toContain('Thank you, your reviews are in');

    const reviews = await api('GET', `/api/v1/organizations/${t.org.id}/reviews`, { key: t.keys.read });
    expect(reviews.body.meta.total).toBe(3);
    const bySubject = Object.fromEntries(
      reviews.body.data.map((r: { product: { external_id: string } | null }) => [r.product?.external_id ?? '-', r]),
    );
    for (const [subject, content] of [['MUG', 'A lovely mug.'], ['TEE', 'A lovely mug.'], ['-', 'Friendly shop.']]) {
      expect(bySubject[subject]).toMatchObject({
        content,
        verification_status: 'verified',
        verification_method: 'invitation',
      });
    }
    const r = await api('GET', requestsPath(t, `/${created.body.id}`), { key: t.keys.read });
    expect(r.body).toMatchObject({ status: 'completed', review_id: bySubject.MUG.id });
  });
});
