/// <reference lib="dom" />
// The widget's product modes in chromium, against the real API and database, on a shop's page of
// another origin with hostile CSS. Product mode (`data-product`): the product's summary over its
// group, its reviews paged with "more", the sort and the star filter, and its JSON-LD put once in
// the page's head, equal to the `jsonld` route's (not with `data-jsonld="off"`). Stars mode
// (`data-mode="stars"`): thirty containers read with one `ratings` request, later ones batched
// too, an unknown id left as its fallback. Markup in a product's name stays text; axe-core finds
// no violation; the page around them does not move (CLS 0). Screenshots go to
// $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews, type ReviewSpec } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();
const MUG_NAME = 'Stoneware mug <b>blue</b> & "glazed"';
const CATEGORY = Array.from({ length: 30 }, (_, i) => `TEA-${String(i + 1).padStart(2, '0')}`);

let t: Tenant;
let script: string;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [
    {
      external_id: 'MUG-1',
      name: MUG_NAME,
      group: 'mug',
      url: 'https://shop.example/mug',
      image_url: 'https://shop.example/mug.jpg',
      gtin: '4006381333931',
      brand: 'Fjord',
    },
    { external_id: 'MUG-2', name: 'Stoneware mug red', group: 'mug' },
    { external_id: 'QUIET', name: 'A product without reviews' },
    ...CATEGORY.map((external_id, i) => ({ external_id, name: `Tea ${i + 1}` })),
  ]);
  const form = await createForm(t, {});
  // The group: 12 reviews (so a second page), 7 of the blue mug and 5 of the red one.
  const blue: ReviewSpec[] = [5, 5, 4, 5, 3, 1, 5].map((r, i) => [r, `Blue ${i}`, `Blue mug review ${i}.`, `Ann ${i}`]);
  const red: ReviewSpec[] = [4, 5, 2, 5, 4].map((r, i) => [r, null, `Red mug review ${i}.`, `Bo ${i}`]);
  await postReviews(form.id, `${t.org.slug}-blue`, blue, 'MUG-1');
  await postReviews(form.id, `${t.org.slug}-red`, red, 'MUG-2');
  // A review of the business: never on a product's widget.
  await postReviews(form.id, `${t.org.slug}-biz`, [[2, 'Shop', 'About the shop itself.', 'Cy']]);
  // Every other tea of the category has reviews: 4 and 5.
  for (const id of CATEGORY.filter((_, i) => i % 2 === 0)) {
    await postReviews(form.id, `${t.org.slug}-${id}`, [[4, null, 'Nice tea.', 'Di'], [5, null, 'Lovely.', 'Ed']], id);
  }
});

const productUrl = (id: string, rest = '') => `/api/v1/public/products/${t.org.slug}/${encodeURIComponent(id)}${rest}`;

function container(product: string, attrs = '', fallback = 'Reviews of this product') {
  return `<div data-plaudit-widget data-slug="${t.org.slug}" data-product="${product}" ${attrs}><a href="/reviews">${fallback}</a></div>`;
}

/** What the product widget shows, read inside its shadow root. */
function shown(page: Page, selector = '[data-product]') {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel)!.shadowRoot!;
    return {
      name: root.querySelector('.name')?.textContent,
      head: root.querySelector('.head')?.textContent,
      bold: root.querySelectorAll('b').length,
      ratings: [...root.querySelectorAll('li.r > [role=img]')].map((e) => e.getAttribute('aria-label')),
      contents: [...root.querySelectorAll('li.r > p:not(.title)')].map((e) => e.textContent),
    };
  }, selector);
}

const jsonLdScripts = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => ({
      inHead: s.parentElement === document.head,
      text: s.textContent ?? '',
    }))
  );

const ready = (page: Page, selector = '[data-product]') =>
  page.waitForFunction((sel) => !!document.querySelector(sel)?.shadowRoot?.querySelector('.w'), selector);

describe('product mode', () => {
  it("shows the product's group: summary, bars, reviews with more, sort, star filter; markup stays text", async () => {
    const url = site.page(
      '/mug',
      hostPage(`${container('MUG-1', 'style="height:640px"')}<script async src="${script}"></script>`),
    );
    for (const width of [375, 1280]) {
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        await ready(page);
        let seen = await shown(page);
        expect(seen.name).toBe(MUG_NAME);
        expect(seen.bold).toBe(0);
        expect(seen.head).toContain('4.0');
        expect(seen.head).toContain('12 reviews');
        expect(seen.contents).toHaveLength(10);
        expect(seen.contents.join()).not.toContain('About the shop itself.');
        // Every review is on the product's page.
        expect(
          await page.locator('[data-product]').getByRole('link', { name: 'See all 12 reviews' }).getAttribute('href'),
        )
          .toBe(`${inject('apiUrl')}/p/${t.org.slug}/products/MUG-1`);
        const widget = page.locator('[data-product]');
        // The distribution: 6 five-star reviews of 12.
        await expect.poll(() => widget.getByRole('button', { name: '5 ★: 6 reviews' }).count()).toBe(1);
        await page.screenshot({ path: path.join(screenshotDir(), `widget-product-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);

        await widget.getByRole('button', { name: 'Show more reviews' }).click();
        await expect.poll(async () => (await shown(page)).contents.length).toBe(12);
        expect(await widget.getByRole('button', { name: 'Show more reviews' }).count()).toBe(0);

        await widget.getByLabel('Sort by').selectOption('lowest');
        await expect.poll(async () => (await shown(page)).ratings[0]).toBe('Rated 1 out of 5');
        seen = await shown(page);
        expect(seen.ratings.slice(0, 3)).toEqual(['Rated 1 out of 5', 'Rated 2 out of 5', 'Rated 3 out of 5']);

        await widget.getByRole('button', { name: '5 ★: 6 reviews' }).click();
        await expect.poll(async () => (await shown(page)).ratings.length).toBe(6);
        expect(new Set((await shown(page)).ratings)).toEqual(new Set(['Rated 5 out of 5']));
        expect(await widget.getByRole('button', { name: '5 ★: 6 reviews' }).getAttribute('aria-pressed')).toBe('true');
        await widget.getByRole('button', { name: 'All ratings' }).click();
        await expect.poll(async () => (await shown(page)).ratings.length).toBe(10);
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("puts the product's JSON-LD in the page's head once, equal to the jsonld route's, and never twice", async () => {
    const route = await api('GET', productUrl('MUG-1', '/jsonld'));
    expect(route.status).toBe(200);
    const url = site.page(
      '/jsonld',
      hostPage(
        `${container('MUG-1')}${container('MUG-1', 'class="again"')}<script async src="${script}"></script>`,
      ),
    );
    const { page, errors, close } = await openPage(browser(), url, 1280);
    try {
      await ready(page, '.again');
      await ready(page);
      let scripts = await jsonLdScripts(page);
      expect(scripts).toHaveLength(1);
      expect(scripts[0].inHead).toBe(true);
      expect(JSON.parse(scripts[0].text)).toEqual(route.body);
      // The name's markup is data inside the JSON, not an element of the page.
      expect(JSON.parse(scripts[0].text).name).toBe(MUG_NAME);
      expect(await page.evaluate(() => document.querySelectorAll('b').length)).toBe(0);
      await page.evaluate(() => (window as any).Plaudit.refresh());
      await ready(page);
      await page.waitForFunction(() =>
        document.querySelectorAll('[data-product]').length === 2 &&
        [...document.querySelectorAll('[data-product]')].every((el) => el.shadowRoot?.querySelector('.w'))
      );
      scripts = await jsonLdScripts(page);
      expect(scripts).toHaveLength(1);
      expect(JSON.parse(scripts[0].text)).toEqual(route.body);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('adds no JSON-LD with data-jsonld="off"', async () => {
    const url = site.page(
      '/no-jsonld',
      hostPage(`${container('MUG-1', 'data-jsonld="off"')}<script async src="${script}"></script>`),
    );
    const { page, close } = await openPage(browser(), url, 1280);
    try {
      await ready(page);
      expect(await jsonLdScripts(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an unknown product leaves the fallback and throws nothing; a product without reviews says so', async () => {
    const url = site.page(
      '/unknown',
      hostPage(
        `${container('NO-SUCH', 'class="unknown"', 'Unknown product reviews')}${
          container('QUIET', 'class="quiet"')
        }<script async src="${script}"></script>`,
      ),
    );
    const { page, errors, close } = await openPage(browser(), url, 1280);
    try {
      await ready(page, '.quiet');
      expect((await shown(page, '.quiet')).head).toContain('No reviews yet');
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('link', { name: 'Unknown product reviews' }).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.querySelector('.unknown')!.shadowRoot?.querySelector('.w') ?? null))
        .toBeNull();
      expect(await jsonLdScripts(page)).toHaveLength(1); // the quiet product's, none for the unknown
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
  it('a container unmounted while its data is on the way stays as it was', async () => {
    const url = site.page(
      '/unmounted',
      hostPage(`${container('MUG-1', 'class="gone"', 'Gone reviews')}<script async src="${script}"></script>
<script>addEventListener('plaudit:ready', () => { window.__ready = (window.__ready || 0) + 1; });</script>`),
    );
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The product's summary is held until the page has unmounted the container.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const summaryAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/public\/products\/[^/]+\/MUG-1$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    try {
      await page.goto(url);
      await summaryAsked;
      await page.evaluate(() => (window as any).Plaudit.unmount(document.querySelector('.gone')));
      release();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.querySelector('.gone')!.shadowRoot?.querySelector('.w') ?? null))
        .toBeNull();
      expect(await page.getByRole('link', { name: 'Gone reviews' }).isVisible()).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __ready?: number }).__ready)).toBeUndefined();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('stars mode', () => {
  const starsOf = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-mode=stars]')].map((el) => {
        const line = el.shadowRoot?.querySelector('.sm');
        return line ? { label: line.getAttribute('aria-label'), text: line.textContent } : null;
      })
    );

  it('reads thirty containers with one ratings request, later ones batched too; an unknown id keeps its fallback', async () => {
    const stars = (id: string) =>
      container(id, 'data-mode="stars" style="display:block;height:24px"', `Reviews of ${id}`);
    const url = site.page(
      '/category',
      // Ids the ratings route would refuse leave their own fallback, not the others'.
      hostPage(
        `<ul>${CATEGORY.map((id) => `<li>${stars(id)}</li>`).join('')}<li>${stars('NO-SUCH')}</li><li>${
          stars('')
        }</li><li>${stars('x'.repeat(201))}</li><li>${stars('A,B')}</li></ul>
<script async src="${script}"></script>
<script>
  addEventListener('plaudit:ready', () => {
    window.__ready = (window.__ready || 0) + 1;
    if (window.__ready !== 30) return;
    // Three more, added by the page in one go once the first ones are drawn.
    for (const id of ['MUG-1', 'MUG-2', 'QUIET']) {
      const el = document.createElement('div');
      el.className = 'later';
      el.setAttribute('data-slug', ${JSON.stringify(t.org.slug)});
      el.setAttribute('data-product', id);
      el.setAttribute('data-mode', 'stars');
      el.setAttribute('data-plaudit-widget', '');
      document.querySelector('main').append(el);
    }
  });
</script>`,
      ),
    );
    for (const width of [375, 1280]) {
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      const ratingsRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/ratings?')) ratingsRequests.push(r.url());
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(url);
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.later')].every((el) => el.shadowRoot?.querySelector('.sm'))
        );
        await page.waitForLoadState('networkidle');
        expect(ratingsRequests).toHaveLength(2);
        expect(new URL(ratingsRequests[0]).searchParams.get('ids')!.split(',')).toEqual([...CATEGORY, 'NO-SUCH']);
        expect(new URL(ratingsRequests[1]).searchParams.get('ids')).toBe('MUG-1,MUG-2,QUIET');
        const seen = await starsOf(page);
        expect(seen[0]).toEqual({ label: 'Rated 4.5 out of 5, 2 reviews', text: '★★★★★ 4.5 (2)' });
        expect(seen[1]).toEqual({ label: 'No reviews yet', text: '☆☆☆☆☆ (0)' });
        expect(seen.slice(30, 34)).toEqual([null, null, null, null]); // the unknown and the refused ids
        expect(await page.getByRole('link', { name: 'Reviews of NO-SUCH' }).isVisible()).toBe(true);
        // The group's figures, as on the product's widget.
        expect(seen[34]).toEqual({ label: 'Rated 4.0 out of 5, 12 reviews', text: '★★★★☆ 4.0 (12)' });
        await page.screenshot({ path: path.join(screenshotDir(), `widget-stars-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['ul'])).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('the page around them', () => {
  it('does not move when the product and the stars arrive (CLS 0)', async () => {
    const url = site.page(
      '/cls-products',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<script>
  window.__shift = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
</script>
<h1>Tea</h1>${container('TEA-01', 'data-mode="stars" style="display:block;height:24px"')}<p>Text below the stars.</p>
${container('MUG-1', 'style="display:block;height:560px"')}<p id="below">Text below the widget.</p>
<script async src="${script}"></script></body></html>`,
    );
    for (const width of [375, 1280]) {
      const { page, close } = await openPage(browser(), url, width);
      try {
        await page.waitForFunction(() =>
          [...document.querySelectorAll('[data-product]')].every((el) => el.shadowRoot?.querySelector('.w'))
        );
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
        expect((await page.locator('[data-mode=stars]').boundingBox())?.height).toBe(24);
        await page.screenshot({ path: path.join(screenshotDir(), `widget-product-reserved-${width}.png`) });
      } finally {
        await close();
      }
    }
  });
});

describe('nothing to show', () => {
  it('an unknown product or slug collapses its container to the fallback link, over nothing of the page', async () => {
    const url = site.page(
      '/unknown-collapse',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Tea</h1>
${container('NO-SUCH', 'id="stars" data-mode="stars" style="display:block;height:24px"', 'Stars of nothing')}
<p id="after-stars">Text below the stars.</p>
${container('NO-SUCH', 'id="product" style="display:block;height:560px"', 'Reviews of nothing')}
<p id="after-product">Text below the product.</p>
<div id="service-widget" data-slug="no-such-shop-${t.org.slug}" style="display:block;height:480px"><a href="/r">Reviews of no shop</a></div>
<p id="after-widget">Text below the widget.</p>
<script async src="${script}"></script></body></html>`,
    );
    for (const width of [390, 1280]) {
      const { page, errors, close } = await openPage(browser(), url, width);
      try {
        await page.waitForLoadState('networkidle');
        for (
          const [box, next] of [['stars', 'after-stars'], ['product', 'after-product'], [
            'service-widget',
            'after-widget',
          ]]
        ) {
          const container = (await page.locator(`#${box}`).boundingBox())!;
          const link = (await page.locator(`#${box} > a`).boundingBox())!;
          const below = (await page.locator(`#${next}`).boundingBox())!;
          expect(container.height, box).toBeCloseTo(link.height, 0);
          // The link is inside its container, and the page's next element starts below both.
          expect(link.y, box).toBeGreaterThanOrEqual(container.y);
          expect(link.y + link.height, box).toBeLessThanOrEqual(container.y + container.height + 0.5);
          expect(below.y, box).toBeGreaterThanOrEqual(container.y + container.height);
          expect(await page.locator(`#${box} > a`).isVisible(), box).toBe(true);
        }
        await page.screenshot({ path: path.join(screenshotDir(), `widget-unknown-collapsed-${width}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  });
});
