// The widget's first view as an HTML fragment (`/api/v1/public/fragments/…`), over real HTTP: a
// self-contained fragment (no document, no script but the product's JSON-LD), styles whose every
// selector starts with the root class, the summary and the first reviews as the widget draws them,
// hostile review text kept as text, the state the widget adopts equal to the public routes', the
// caching of every public answer (ETag, 304, a new review changing it), and bad input refused.
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';
import postcss from 'postcss';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;
const fragmentOf = (slug: string, query = '') => `/api/v1/public/fragments/${slug}.html${query}`;
const productFragmentOf = (slug: string, id: string, query = '') =>
  `/api/v1/public/fragments/${slug}/products/${encodeURIComponent(id)}.html${query}`;

const HOSTILE = '</script><script>alert(1)</script></style><style>*{display:none}</style><img src=x onerror=alert(2)>';

let shop: Tenant;
let off: Tenant;
let formId: string;

beforeAll(async () => {
  [shop, off] = await Promise.all([createTenant(), createTenant()]);
  const form = await createForm(api, shop);
  formId = form.id;
  await postReviews(formId, `frag-${shop.org.slug}`, [
    [5, 'Great & "good"', 'Lovely service.', 'Ann'],
    [4, HOSTILE, `Body ${HOSTILE}`, `Eve ${HOSTILE}`],
    [3, null, 'Fine.', 'Bo'],
  ]);
  const mug = await api('POST', `${orgPath(shop)}/products`, {
    key: shop.keys.write,
    body: { external_id: 'MUG/1', name: `Mug ${HOSTILE}` },
  });
  expect(mug.status).toBe(201);
  await postReviews(formId, `frag-mug-${shop.org.slug}`, [
    [5, 'Sturdy', `It holds tea. ${HOSTILE}`, 'Cy'],
    [4, null, 'Nice mug.', 'Di'],
    [2, null, 'Chipped.', 'Ed'],
  ], 'MUG/1');
  const res = await api('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
  expect(res.status).toBe(200);
});

const elements = (node: Node): Element[] =>
  'childNodes' in node
    ? node.childNodes.flatMap((c) => ('tagName' in c ? [c, ...elements(c)] : elements(c as Node)))
    : [];
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const text = (node: Node): string =>
  'value' in node ? (node as { value: string }).value : 'childNodes' in node ? node.childNodes.map(text).join('') : '';
const withClass = (els: Element[], cls: string) => els.filter((e) => (attr(e, 'class') ?? '').split(' ').includes(cls));

async function fragment(path: string) {
  const res = await api('GET', path);
  expect(res.status, String(res.body)).toBe(200);
  const html = res.body as string;
  const tree = parseFragment(html);
  return { res, html, tree, els: elements(tree) };
}

/** Every selector of the style sheets, @media blocks included. */
function selectorsOf(els: Element[]): string[] {
  const selectors: string[] = [];
  for (const style of els.filter((e) => e.tagName === 'style')) {
    postcss.parse(text(style)).walkRules((rule) => {
      selectors.push(...rule.selectors);
    });
  }
  return selectors;
}

describe("the business's fragment", () => {
  it('is a self-contained fragment of text/html: one root, no document, no script, styles under its root class', async () => {
    const { res, tree, els } = await fragment(fragmentOf(shop.org.slug));
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const roots = tree.childNodes.filter((n) => 'tagName' in n) as Element[];
    expect(roots.map((r) => [r.tagName, attr(r, 'class')])).toEqual([['div', 'plaudit-fragment']]);
    expect(attr(roots[0], 'data-slug')).toBe(shop.org.slug);
    expect(els.filter((e) => ['html', 'head', 'body', 'script', 'iframe', 'link'].includes(e.tagName))).toEqual([]);
    const selectors = selectorsOf(els);
    expect(selectors.length).toBeGreaterThan(40);
    expect(selectors.filter((s) => !/^\.plaudit-fragment(?![\w-])/.test(s))).toEqual([]);
  });

  it("shows the summary with partial stars and the widget's reviews, hostile text as text", async () => {
    const profile = await api('GET', `/api/v1/public/profiles/${shop.org.slug}`);
    const { html, els } = await fragment(fragmentOf(shop.org.slug));
    const [summary] = withClass(els, 'head');
    expect(text(summary)).toContain(`${profile.body.name}★★★★☆4.0`);
    const [stars] = withClass(elements(summary), 'st');
    expect(attr(stars, 'style')).toBe(`--f:${profile.body.average_rating * 20}%`);
    expect(attr(stars, 'aria-label')).toBe('Rated 4 out of 5');
    const items = withClass(els, 'r');
    expect(items.map((li) => text(withClass(elements(li), 'tx')[0]))).toEqual([
      'Fine.',
      `Body ${HOSTILE}`,
      'Lovely service.',
    ]);
    // The hostile text is nowhere markup: no element, no attribute came from it.
    expect(html).not.toContain('<img src=x');
    expect(els.filter((e) => e.tagName === 'img' || e.tagName === 'script')).toEqual([]);
    expect(els.filter((e) => e.tagName === 'style')).toHaveLength(1);
    expect(withClass(els, 'hb').map(text)).toEqual(['Helpful (0)', 'Helpful (0)', 'Helpful (0)']);
  });

  it("carries the state the widget adopts: the public list's reviews, in the order asked", async () => {
    const list = await api('GET', `/api/v1/public/reviews/${shop.org.slug}?sort=highest&limit=2`);
    const { els } = await fragment(fragmentOf(shop.org.slug, '?sort=highest&limit=2&layout=grid&theme=dark'));
    const [view] = els.filter((e) => attr(e, 'data-plaudit-state') !== undefined);
    const state = JSON.parse(attr(view, 'data-plaudit-state')!);
    expect(state.business.reviews).toEqual(list.body.data);
    expect(state).toMatchObject({ locale: 'en', business: { layout: 'grid', theme: 'dark', max_reviews: 2 } });
    expect(attr(withClass(els, 'w')[0], 'class')).toBe('w grid dark');
  });

  it("speaks the reader's language", async () => {
    const { els } = await fragment(fragmentOf(shop.org.slug, '?language=de-DE'));
    expect(text(withClass(els, 'all')[0])).toBe('Alle 3 Bewertungen ansehen');
    expect(attr(els[0], 'lang')).toBe('de');
  });

  it('is cached like every public answer: ETag, 304, the cache keys, and a new review changes it', async () => {
    const path = fragmentOf(shop.org.slug, '?limit=5');
    const first = await api('GET', path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(first.headers.get('surrogate-key')).toBe(`org-${shop.org.id}`);
    const again = await api('GET', path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // Another query is another answer.
    const other = await api('GET', fragmentOf(shop.org.slug, '?limit=4'), { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    await postReviews(formId, `frag-new-${shop.org.slug}`, [[5, null, 'Came back for more.', 'Flo']]);
    const after = await api('GET', path, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.body).toContain('Came back for more.');
  });
});

describe("a product's fragment", () => {
  it("is the product widget's view with the product's JSON-LD, which cannot close its script", async () => {
    const { html, els } = await fragment(productFragmentOf(shop.org.slug, 'MUG/1', '?limit=2'));
    const scripts = els.filter((e) => e.tagName === 'script');
    expect(scripts.map((s) => attr(s, 'type'))).toEqual(['application/ld+json']);
    const jsonld = await api('GET', `/api/v1/public/products/${shop.org.slug}/${encodeURIComponent('MUG/1')}/jsonld`);
    expect(JSON.parse(text(scripts[0]))).toEqual(jsonld.body);
    expect(text(scripts[0])).not.toMatch(/<|>/);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(attr(els[0], 'data-product')).toBe('MUG/1');
    expect(withClass(els, 'name').map(text)).toEqual([`Mug ${HOSTILE}`]);
    expect(withClass(els, 'bars')).toHaveLength(1);
    expect(withClass(els, 'r')).toHaveLength(2);
    // Three reviews two a page: "more" is there, as the widget shows it.
    expect(text(withClass(els, 'end')[0])).toContain('Show more reviews');
    const [view] = els.filter((e) => attr(e, 'data-plaudit-state') !== undefined);
    expect(JSON.parse(attr(view, 'data-plaudit-state')!).product).toMatchObject({ limit: 2, sort: 'newest' });
    expect(selectorsOf(els).filter((s) => !s.startsWith('.plaudit-fragment'))).toEqual([]);
  });

  it('answers 404 for an unknown product, an unknown business and a switched-off profile', async () => {
    expect((await api('GET', productFragmentOf(shop.org.slug, 'NOPE'))).body).toEqual(
      errorBody(404, 'Not Found', 'Product not found'),
    );
    expect((await api('GET', fragmentOf('no-such-business-anywhere'))).body).toEqual(
      errorBody(404, 'Not Found', 'Business not found'),
    );
    expect((await api('GET', fragmentOf(off.org.slug))).status).toBe(404);
    expect((await api('GET', productFragmentOf(off.org.slug, 'MUG/1'))).status).toBe(404);
    // Without its suffix, nothing is there.
    expect((await api('GET', `/api/v1/public/fragments/${shop.org.slug}`)).status).toBe(404);
  });
});

describe('bad input', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=21', 'limit'],
    ['limit=two', 'limit'],
    ['layout=table', 'layout'],
    ['theme=pink', 'theme'],
    ['sort=random', 'sort'],
    ['language=%3Cscript%3E', 'language'],
    ['language=' + 'a'.repeat(40), 'language'],
  ])('?%s answers 400 naming %s, for the business and a product', async (query, field) => {
    for (
      const path of [fragmentOf(shop.org.slug, `?${query}`), productFragmentOf(shop.org.slug, 'MUG/1', `?${query}`)]
    ) {
      const res = await api('GET', path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'Bad Request'));
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('a slug past 200 characters answers 400', async () => {
    const res = await api('GET', fragmentOf('a'.repeat(201)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request'));
  });
});
