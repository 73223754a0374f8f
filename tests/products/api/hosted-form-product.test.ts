// The hosted form for a review of one product (/forms/:formId?product=<external_id>): the page
// shows the product as text, the review it sends is of that product, and a product that cannot be
// reviewed gets a page that says why (unknown: 404; archived: 410), never the form.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createProduct, type Product } from '../../helpers/products.ts';
import { createForm, freshIp, ownApiServer } from '../../helpers/reviews.ts';

const server = ownApiServer();

let a: Tenant;
let b: Tenant;
let form: { id: string };
let mug: Product;

const formUrl = (formId: string, product?: string) =>
  `${server.url}/forms/${formId}${product === undefined ? '' : `?product=${encodeURIComponent(product)}`}`;
const post = async (url: string, fields: Record<string, string>) => {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.text() };
};
const review = (email: string) => ({
  rating: '4',
  content: 'Holds a lot',
  reviewer_name: 'Ida',
  reviewer_email: email,
});

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  form = await createForm(server.call, a);
  mug = await createProduct(server.call, a, {
    external_id: 'MUG/1 "big"',
    name: 'Mug <b>big</b> & "bold"',
    image_url: 'https://cdn.example/mug.png?a=1&b=2',
  });
  await createProduct(server.call, a, { external_id: 'OLD', name: 'Old mug', archived: true });
  await createProduct(server.call, a, {
    external_id: 'PLAIN',
    name: 'Plain mug',
    image_url: 'http://cdn.example/x.png',
  });
  await createProduct(server.call, b, { external_id: 'THEIRS', name: 'Their mug' });
});

describe('the hosted form with ?product=', () => {
  it('shows the product, its name as text and its image with the name as alt, above the rating', async () => {
    const res = await fetch(formUrl(form.id, mug.external_id));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Review Mug &lt;b&gt;big&lt;/b&gt; &amp; &quot;bold&quot; · ');
    expect(html).toContain('<h1>Your review of Mug &lt;b&gt;big&lt;/b&gt; &amp; &quot;bold&quot;</h1>');
    expect(html).toContain(
      '<img class="product-thumb" src="https://cdn.example/mug.png?a=1&amp;b=2" alt="Mug &lt;b&gt;big&lt;/b&gt; &amp; &quot;bold&quot;"',
    );
    expect(html).not.toContain('<b>big</b>');
    expect(html.indexOf('class="product-thumb"')).toBeLessThan(html.indexOf('<legend>Your rating</legend>'));
    // The form posts back to the same product.
    expect(html).toContain(`action="/forms/${form.id}?product=MUG%2F1%20%22big%22"`);
    // A plain http image, which the pages' CSP would block, is asked for over https.
    const plain = await (await fetch(formUrl(form.id, 'PLAIN'))).text();
    expect(plain).toContain('<h1>Your review of Plain mug</h1>');
    expect(plain).toContain('<img class="product-thumb" src="https://cdn.example/x.png" alt="Plain mug"');
    expect(plain).not.toContain('http://cdn.example');
  });

  it('sends a review of the product', async () => {
    const sent = await post(formUrl(form.id, mug.external_id), review('ida-product@example.com'));
    expect(sent.status).toBe(201);
    const [stored] = await db`select product_id from plaudit.reviews where reviewer_email = 'ida-product@example.com'`;
    expect(stored.product_id).toBe(mug.id);
    // Refused input keeps the product on the page.
    const bad = await post(formUrl(form.id, mug.external_id), { ...review('ida-bad@example.com'), rating: '' });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('<h1>Your review of Mug &lt;b&gt;big&lt;/b&gt;');
  });

  it("an unknown product, or another organization's, is a 404 page; an archived one a 410 page; nothing is stored", async () => {
    for (const externalId of ['NOPE', 'THEIRS', 'x'.repeat(201)]) {
      const page = await fetch(formUrl(form.id, externalId));
      expect(page.status, externalId.slice(0, 10)).toBe(404);
      expect(await page.text()).toContain('<h1>This product is not available</h1>');
      const sent = await post(formUrl(form.id, externalId), review(`nope-${externalId.length}@example.com`));
      expect(sent.status).toBe(404);
    }
    const archived = await fetch(formUrl(form.id, 'OLD'));
    expect(archived.status).toBe(410);
    const text = await archived.text();
    expect(text).toContain('<h1>This product takes no new reviews</h1>');
    expect(text).toContain('Old mug is no longer offered for review');
    expect((await post(formUrl(form.id, 'OLD'), review('old@example.com'))).status).toBe(410);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.reviews
      where reviewer_email in ('nope-4@example.com', 'nope-6@example.com', 'nope-201@example.com', 'old@example.com')`;
    expect(n).toBe(0);
  });

  it('an empty ?product= is the business form', async () => {
    const html = await (await fetch(formUrl(form.id, ''))).text();
    expect(html).toContain(`<h1>Review ${a.org.name}</h1>`);
  });
});
