/// <reference lib="dom" />
// A shop's server-rendered page that includes the API's fragments (read as a shop's server reads
// them) and loads the widget, in chromium, from a static server of the test's own on another
// origin than the API's. The widget adopts each fragment: it reads nothing for the first view (the
// requests are counted), keeps the fragment's own elements (the same nodes before and after), and
// nothing on the page moves (the layout-shift entries sum to 0); what reacts works (a helpful vote,
// "more" and the sort of a product's reviews, of the fragment's page size). The JSON-LD is the
// fragment's, never put twice; the product's Questions tab opens over it; axe-core finds no
// violation; screenshots at 1,280 and 390 px. The widget's script arrives after the first paint, so
// that any difference between the fragment and the widget's first render is measured as a shift.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { openPage, plainShopPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews, type ReviewSpec } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();

let t: Tenant;
let script: string;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [{ external_id: 'MUG-1', name: 'Stoneware mug' }]);
  const form = await createForm(t, {});
  await postReviews(form.id, `${t.org.slug}-biz`, [
    [5, 'Quick delivery', 'Everything arrived the next day, well packed.', 'Ann'],
    [4, null, 'Good shop </script><b>bold</b>, friendly answers.', 'Bo'],
    [5, 'Again', 'My third order here.', 'Cy'],
  ]);
  const mug: ReviewSpec[] = [5, 4, 5, 2, 4].map((r, i) => [r, `Mug ${i}`, `Mug review ${i}.`, `Di ${i}`]);
  await postReviews(form.id, `${t.org.slug}-mug`, mug, 'MUG-1');
});

/** A shop's own page, with its own styles, the fragment included by its server, and the widget's script. */
function shopPage(fragment: string) {
  return plainShopPage(
    `<p>Handmade stoneware since 1998.</p>${fragment}`,
    `<script>window.__first = document.querySelector('.plaudit-fragment li.r');</script>
<script>
  // The widget's script arrives after the first paint, as on a slow network: any difference
  // between the fragment and the widget's first render would then be a shift.
  addEventListener('load', () => requestAnimationFrame(() => requestAnimationFrame(() => {
    const s = document.createElement('script');
    s.src = ${JSON.stringify(script)};
    document.body.append(s);
  })));
</script>`,
  );
}

/** The API's requests the page makes, past the widget's script. */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(inject('apiUrl')) && !r.url().includes('/embed/v1/')) seen.push(`${r.method()} ${r.url()}`);
  });
  return seen;
}

async function adopted(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready === 1);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

describe("the business's fragment in a shop's page", () => {
  it('is adopted: no read, the same nodes, nothing moves; a vote counts; axe clean', async () => {
    const fragment = (await api('GET', `/api/v1/public/fragments/${t.org.slug}.html?layout=list`)).body as string;
    const url = site.page('/business', shopPage(fragment));
    for (const width of [1280, 390]) {
      const context = await browser().newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const requests = apiRequests(page);
        await page.goto(url);
        await adopted(page);
        expect(requests).toEqual([]);
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
        expect(
          await page.evaluate(() =>
            document.querySelector('.plaudit-fragment li.r') === (window as unknown as { __first: Element }).__first
          ),
        ).toBe(true);
        // No shadow root: the widget draws in the fragment's own elements.
        expect(await page.evaluate(() => document.querySelector('.plaudit-fragment')!.shadowRoot)).toBeNull();
        const fragmentRoot = page.locator('.plaudit-fragment');
        expect(await fragmentRoot.locator('b').count()).toBe(0);
        await expect.poll(() => fragmentRoot.getByText('</script><b>bold</b>', { exact: false }).count()).toBe(1);
        await page.screenshot({ path: path.join(screenshotDir(), `fragment-business-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['.plaudit-fragment'])).toEqual([]);

        // The first review's vote: one request, counted and pressed.
        const vote = fragmentRoot.locator('li.r').first().getByRole('button', { name: /^Helpful/ });
        const before = Number((await vote.textContent())!.match(/\d+/)![0]);
        await vote.click();
        await expect.poll(() => vote.getAttribute('aria-pressed')).toBe('true');
        expect(await vote.textContent()).toBe(`Helpful (${before + 1})`);
        expect(requests).toHaveLength(1);
        expect(requests[0]).toMatch(new RegExp(`^POST .*/api/v1/public/reviews/${t.org.slug}/[0-9a-f-]+/helpful$`));
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe("the business's carousel fragment in a container of the snippet's height", () => {
  it('is adopted without a read or a shift, and its arrows move the cards', async () => {
    const fragment = (await api('GET', `/api/v1/public/fragments/${t.org.slug}.html?layout=carousel`)).body as string;
    const url = site.page('/carousel', shopPage(`<div style="height:320px">${fragment}</div>`));
    const { page, errors, close } = await openPage(browser(), url, 390);
    try {
      const requests = apiRequests(page);
      await page.reload();
      await adopted(page);
      expect(requests).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
      await page.screenshot({ path: path.join(screenshotDir(), 'fragment-carousel-390.png'), fullPage: true });
      expect(await axeViolations(page, ['.plaudit-fragment'])).toEqual([]);
      await page.locator('.plaudit-fragment').getByRole('button', { name: 'Next reviews' }).click();
      await expect.poll(() => page.evaluate(() => document.querySelector('.plaudit-fragment .items')!.scrollLeft))
        .toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("a product's fragment in a shop's page", () => {
  it("is adopted with its page size and order: more and the sort read the next pages; the JSON-LD is the fragment's", async () => {
    const fragment =
      (await api('GET', `/api/v1/public/fragments/${t.org.slug}/products/MUG-1.html?limit=2&sort=highest`))
        .body as string;
    const url = site.page('/product', shopPage(fragment));
    const { page, errors, close } = await openPage(browser(), url, 1280);
    try {
      const requests = apiRequests(page);
      await page.reload();
      await adopted(page);
      expect(requests).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
      expect(await page.evaluate(() => document.querySelectorAll('script[type="application/ld+json"]').length)).toBe(1);
      const widget = page.locator('.plaudit-fragment');
      const ratings = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('.plaudit-fragment .items > li.r > [role=img]')].map((e) =>
            e.getAttribute('aria-label')
          )
        );
      expect(await ratings()).toEqual(['Rated 5 out of 5', 'Rated 5 out of 5']);
      expect(await widget.getByLabel('Sort by').inputValue()).toBe('highest');
      await page.screenshot({ path: path.join(screenshotDir(), 'fragment-product-1280.png'), fullPage: true });
      expect(await axeViolations(page, ['.plaudit-fragment'])).toEqual([]);

      await widget.getByRole('button', { name: 'Show more reviews' }).click();
      await expect.poll(ratings).toHaveLength(4);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toContain('/reviews?limit=2&page=2&sort=highest');
      expect(await ratings()).toEqual(['Rated 5 out of 5', 'Rated 5 out of 5', 'Rated 4 out of 5', 'Rated 4 out of 5']);

      await widget.getByLabel('Sort by').selectOption('lowest');
      await expect.poll(async () => (await ratings())[0]).toBe('Rated 2 out of 5');
      expect(await ratings()).toHaveLength(2);

      // The fragment drew the tabs; the widget opens the questions over it, and the reviews give way.
      await widget.getByRole('tab', { name: 'Questions' }).click();
      await expect.poll(() =>
        widget.getByRole('tabpanel', { name: 'Questions' }).getByText('No questions yet.').count()
      )
        .toBe(1);
      expect(await widget.getByLabel('Sort by').isVisible()).toBe(false);
      expect(await widget.getByRole('textbox', { name: 'Your question' }).isVisible()).toBe(true);
      await page.screenshot({
        path: path.join(screenshotDir(), 'fragment-product-questions-1280.png'),
        fullPage: true,
      });
      expect(await axeViolations(page, ['.plaudit-fragment'])).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
