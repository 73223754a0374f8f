// The public profile page /p/:slug over HTTP: the same numbers as the API, structured data that
// matches what is visible, pagination and the rating filter, escaping, caching, the 404 of a
// switched-off profile, and the sitemap (with each profile's review policy and transparency pages) and robots.txt.
import { beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_NOTICE } from '../../../functions/_shared/core/erasure.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

// A page size of 2 makes the sitemap an index with the few profiles a test database holds.
const server = ownApiServer({ SITEMAP_PAGE_SIZE: '2' });
// With the default size one sitemap holds every profile, read in one statement: other test files
// add organizations meanwhile, which would shift the pages of the small one between requests.
const whole = ownApiServer();
const call = server.call;

let t: Tenant;
const orgPath = (x: Tenant) => `/api/v1/organizations/${x.org.id}`;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

/** The JSON-LD of a page. */
function jsonLd(html: string) {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]);
}

const XSS = '<img src=x onerror="alert(1)"></script><script>alert(2)</script>';

beforeAll(async () => {
  // More enabled profiles than one sitemap page holds, whatever else the database has.
  for (let i = 0; i < 3; i++) await createTenant();
  t = await createTenant();
  const open = await createForm(call, t);
  const manual = await createForm(call, t, { verification_mode: 'manual' });
  // 12 public reviews (eleven 5s and a 2, the XSS one among them), one hidden, one pending.
  for (let i = 0; i < 11; i++) {
    await submitOk(call, open.id, { rating: 5, title: `Five ${i}`, content: `Five stars number ${i}` });
  }
  await submitOk(call, open.id, { rating: 2, title: 'Meh', content: XSS, reviewer_name: 'Mallory <b>' });
  const hidden = await submitOk(call, open.id, { rating: 1, content: 'This one is hidden' });
  expect(
    (await call('PATCH', `${orgPath(t)}/reviews/${hidden.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'spam' },
    })).status,
  ).toBe(200);
  await submitOk(call, manual.id, { rating: 4, content: 'This one is pending' });
  expect(
    (await call('PATCH', `${orgPath(t)}/public-profile`, {
      key: t.keys.admin,
      body: { description: 'Mugs & <cups>', website: 'https://acme.example' },
    })).status,
  ).toBe(200);
});

describe('the public profile page', () => {
  it("shows the API's numbers, and structured data that matches the page", async () => {
    const api = await call('GET', `/api/v1/public/profiles/${t.org.slug}`);
    expect(api.body.url).toBe(`${server.url}/p/${t.org.slug}`);
    const res = await get(`/p/${t.org.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600');
    expect(res.headers.get('etag')).toMatch(/^W\//);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="index, follow">');
    expect(html).toContain(`<link rel="canonical" href="${server.url}/p/${t.org.slug}">`);
    expect(html).toContain(`<h1>${t.org.name}</h1>`);
    expect(html).toContain(`<div class="avg">${Number(api.body.average_rating).toFixed(1)}</div>`);
    expect(html).toContain(`${api.body.review_count} reviews`);
    expect(api.body.review_count).toBe(12);

    const ld = jsonLd(html);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: t.org.name,
      url: 'https://acme.example',
      description: 'Mugs & <cups>',
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: api.body.average_rating,
        reviewCount: 12,
        bestRating: 5,
        worstRating: 1,
      },
    });
    // The page's ten reviews, in the page's order, with the page's ratings.
    const visible = [...html.matchAll(/aria-label="Rated (\d) out of 5" style=/g)].map((m) => Number(m[1]));
    expect(ld.review).toHaveLength(10);
    expect(ld.review.map((r: { reviewRating: { ratingValue: number } }) => r.reviewRating.ratingValue)).toEqual(
      visible,
    );
    for (const r of ld.review) {
      expect(r).toMatchObject({ '@type': 'Review', author: { '@type': 'Person' }, reviewBody: expect.any(String) });
      expect(r.datePublished).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
  });

  it('never shows hidden or pending reviews', async () => {
    const html = await (await get(`/p/${t.org.slug}?page=2`)).text() + await (await get(`/p/${t.org.slug}`)).text();
    expect(html).not.toContain('This one is hidden');
    expect(html).not.toContain('This one is pending');
  });

  it('renders review text and business text as text, and keeps the structured data inside its script', async () => {
    const html = await (await get(`/p/${t.org.slug}`)).text();
    expect(html).toContain(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
    );
    expect(html).toContain('Mallory &lt;b&gt;');
    expect(html).toContain('<p>Mugs &amp; &lt;cups&gt;</p>');
    expect(html).not.toContain('<script>alert');
    // Exactly one script element: the structured data, whose JSON escapes < and >.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(jsonLd(html).review.find((r: { reviewBody: string }) => r.reviewBody === XSS)).toBeDefined();
  });

  it('pages ten at a time with rel prev/next, and filters by rating', async () => {
    const first = await (await get(`/p/${t.org.slug}`)).text();
    expect(first.match(/<article class="review"[^>]*>/g)).toHaveLength(10);
    expect(first).toContain(`<link rel="next" href="${server.url}/p/${t.org.slug}?page=2">`);
    expect(first).not.toContain('rel="prev"');
    const second = await (await get(`/p/${t.org.slug}?page=2`)).text();
    expect(second.match(/<article class="review"[^>]*>/g)).toHaveLength(2);
    expect(second).toContain(`<link rel="prev" href="${server.url}/p/${t.org.slug}">`);
    expect(second).toContain('Page 2 of 2');
    expect((await get(`/p/${t.org.slug}?page=3`)).status).toBe(404);

    const twos = await (await get(`/p/${t.org.slug}?rating=2`)).text();
    expect([...twos.matchAll(/aria-label="Rated (\d) out of 5" style=/g)].map((m) => m[1])).toEqual(['2']);
    expect(twos).toContain('aria-current="page">2 ★</a>');
    const ones = await (await get(`/p/${t.org.slug}?rating=1`)).text();
    expect(ones).toContain('No 1-star reviews yet.');
  });

  it('answers a 400 page for a bad page or rating, never a 5xx', async () => {
    for (const q of ['page=0', 'page=-1', 'page=2147483648', 'page=1.5', 'page=abc', 'rating=6', 'rating=x']) {
      const res = await get(`/p/${t.org.slug}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
    }
  });

  it('revalidates by ETag, and a moderation change shows at the next revalidation', async () => {
    const res = await get(`/p/${t.org.slug}`);
    const etag = res.headers.get('etag')!;
    const again = await get(`/p/${t.org.slug}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const [first] = (await call('GET', `/api/v1/public/profiles/${t.org.slug}/reviews?limit=1`)).body.data;
    expect(
      (await call('PATCH', `${orgPath(t)}/reviews/${first.id}/moderate`, {
        key: t.keys.write,
        body: { action: 'hide', reason: 'off-topic' },
      })).status,
    ).toBe(200);
    const changed = await get(`/p/${t.org.slug}`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).not.toContain(first.content);
    await call('PATCH', `${orgPath(t)}/reviews/${first.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'ok' },
    });
  });

  it('a switched-off profile or an unknown slug is a noindex 404, and not in the sitemap', async () => {
    const off = await createTenant();
    await call('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
    for (const slug of [off.org.slug, 'no-such-business-here']) {
      const res = await get(`/p/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    }
    const sitemap = await (await fetch(`${whole.url}/sitemap.xml`)).text();
    expect(sitemap).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(sitemap).toContain(`<loc>${whole.url}/p/${t.org.slug}</loc>`);
    expect(sitemap).not.toContain(`/p/${off.org.slug}<`);
    // Its review policy page is listed right after the profile page, and goes with it.
    const policy = `<loc>${whole.url}/p/${t.org.slug}/policy</loc>`;
    expect(sitemap).toMatch(
      new RegExp(`<loc>${whole.url}/p/${t.org.slug}</loc><lastmod>[\\d-]+</lastmod></url>\n<url>${policy}`),
    );
    // Then its transparency page, with no date: its figures move with every review and decision.
    const transparency = `<loc>${whole.url}/p/${t.org.slug}/transparency</loc>`;
    expect(sitemap).toMatch(new RegExp(`${policy}<lastmod>[\\d-]+</lastmod></url>\n<url>${transparency}</url>\n`));
    expect((await get(`/p/${t.org.slug}/policy`)).status).toBe(200);
    expect((await get(`/p/${t.org.slug}/transparency`)).status).toBe(200);
    expect(sitemap).not.toContain(`/p/${off.org.slug}/policy<`);
    expect(sitemap).not.toContain(`/p/${off.org.slug}/transparency<`);
    expect((await get(`/p/${off.org.slug}/transparency`)).status).toBe(404);
  });
});

describe('an erased review', () => {
  it('is known to the pages by the text plaudit.erasure_notice() gives it', async () => {
    expect((await db`select plaudit.erasure_notice() as n`)[0].n).toBe(ERASURE_NOTICE);
  });

  it('is left out of the structured data, its stars still counted', async () => {
    const e = await createTenant();
    const form = await createForm(call, e);
    const erased = `erased.${e.org.slug}@example.com`;
    await submitOk(call, form.id, { rating: 1, title: 'Gone', content: 'Erase me', reviewer_email: erased });
    await submitOk(call, form.id, { rating: 5, title: 'Kept', content: 'Lovely mugs' });
    const erasure = await call('POST', `${orgPath(e)}/privacy/erasures`, {
      key: e.keys.admin,
      body: { email: erased, redact_content: true },
    });
    expect(erasure.status).toBe(200);

    const html = await (await get(`/p/${e.org.slug}`)).text();
    // The page still shows it as it reads now.
    expect(html).toContain('[removed at the reviewer&#39;s request]');
    const ld = jsonLd(html);
    expect(ld.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 2 });
    expect(ld.review.map((r: { reviewBody: string }) => r.reviewBody)).toEqual(['Lovely mugs']);
  });
});

describe('sitemap and robots.txt', () => {
  it('is an index of sitemaps past the page size, each with at most that many profiles', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const index = await res.text();
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    expect(index).toContain(`<loc>${server.url}/sitemap-1.xml</loc>`);
    const one = await (await get('/sitemap-1.xml')).text();
    expect(one).toMatch(/<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(one.match(/<url>/g)).toHaveLength(2);
    expect(one).toMatch(/<lastmod>\d{4}-\d\d-\d\d<\/lastmod>/);
    expect((await get('/sitemap-999999.xml')).status).toBe(404);
  });

  it('robots.txt allows the profiles, keeps crawlers off private links, and names the sitemap', async () => {
    const text = await (await get('/robots.txt')).text();
    expect(text).toContain('Allow: /p/');
    expect(text).toContain('Disallow: /verify/');
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });
});
