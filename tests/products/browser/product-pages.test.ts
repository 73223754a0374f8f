/// <reference lib="dom" />
// The product pages in a real browser (Debian's chromium): the catalog and a product's page at a
// phone's and a desktop's width, no overflow, axe-core with no violation, screenshots for people
// to look at ($TEST_TMP_DIR/screenshots); without JavaScript, the sort and the star filter are
// links; the Product JSON-LD is a valid schema.org Product whose aggregate is what the page shows.
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');
/** The shop's pictures, as the test answers them (it reaches no other site). */
const PICTURE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"><rect width="240" height="160" fill="#c2703d"/></svg>';

let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { display_name: 'Fjord Ceramics' },
  });
  await syncProducts(t, [
    {
      external_id: 'MUG',
      name: 'Stoneware mug, 350 ml <i>glazed</i>',
      image_url: 'https://shop.example/mug.jpg',
      url: 'https://shop.example/mug',
      gtin: '4006381333931',
      brand: 'Fjord',
    },
    {
      external_id: 'BOWL',
      name: 'Serving bowl with a name long enough to wrap on a phone screen, hand thrown',
      image_url: 'https://shop.example/bowl.jpg',
      url: 'https://shop.example/bowl',
    },
    { external_id: 'PLATE', name: 'Dinner plate', image_url: 'https://shop.example/plate.jpg' },
  ]);
  const form = await createForm(t, {});
  await postReviews(form.id, `${t.org.slug}-mug`, [
    [5, 'Keeps coffee warm', 'Heavy, well balanced, and the glaze is lovely in the morning light.', 'Ingrid H.'],
    [4, null, 'Nice mug. The handle is a little small for big hands.', 'Lars P.'],
    [5, 'Gift', 'Bought four as a present: they arrived well packed. <b>Recommended</b>.', 'Amira K.'],
    [2, 'Chipped', 'One arrived chipped; the shop replaced it within a week.', 'Tom B.'],
  ], 'MUG');
  await postReviews(form.id, `${t.org.slug}-bowl`, [[4, null, 'Big enough for a family salad.', 'Eva']], 'BOWL');
});

/** The product's page in a browser of this width; bypassCSP: the page's policy forbids scripts, axe-core's included. */
async function open(address: string, width: number, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true, ...options });
  const page = await context.newPage();
  await page.route(
    'https://shop.example/**',
    (route) => route.fulfill({ contentType: 'image/svg+xml', body: PICTURE }),
  );
  const res = await page.goto(`${base()}${address}`);
  expect(res?.status()).toBe(200);
  return { page, close: () => context.close() };
}

describe('the product pages in a browser', () => {
  for (const width of [375, 1280]) {
    it(`read well at ${width} px: no overflow, no accessibility violation`, async () => {
      for (
        const [name, address] of [['catalog', `/p/${t.org.slug}/products`], [
          'product',
          `/p/${t.org.slug}/products/MUG`,
        ]]
      ) {
        const { page, close } = await open(address, width);
        try {
          expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(width);
          await page.screenshot({
            path: path.join(screenshotDir(), `product-pages-${name}-${width}.png`),
            fullPage: true,
          });
          expect(await axeViolations(page), name).toEqual([]);
        } finally {
          await close();
        }
      }
    });
  }

  for (const width of [390, 1280]) {
    it(`the product's header at ${width} px: title, back link, shop link and rating box each in a box of its own`, async () => {
      const { page, close } = await open(`/p/${t.org.slug}/products/BOWL`, width);
      try {
        const parts = {
          title: page.locator('h1'),
          back: page.getByRole('link', { name: '← Reviews of Fjord Ceramics' }),
          shop: page.getByRole('link', { name: 'See it at Fjord Ceramics' }),
          rating: page.locator('section.score'),
        };
        const boxes = Object.fromEntries(
          await Promise.all(Object.entries(parts).map(async ([k, l]) => [k, (await l.boundingBox())!])),
        );
        const names = Object.keys(boxes);
        for (const a of names) {
          for (const b of names.filter((n) => n > a)) {
            const [p, q] = [boxes[a], boxes[b]];
            const overlap = p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
            expect(overlap, `${a} ${JSON.stringify(p)} overlaps ${b} ${JSON.stringify(q)}`).toBe(false);
          }
        }
        // The picture keeps its size beside the title, which has the rest of the width.
        expect(await page.getByRole('img', { name: /^Serving bowl/ }).boundingBox())
          .toMatchObject({ width: 96, height: 96 });
        expect(boxes.title.width).toBeGreaterThan(width > 600 ? 300 : 150);
        await page.screenshot({ path: path.join(screenshotDir(), `product-pages-header-${width}.png`) });
      } finally {
        await close();
      }
    });
  }

  it('the catalog shows each product with its stars and leads to its page', async () => {
    const { page, close } = await open(`/p/${t.org.slug}/products`, 1280);
    try {
      expect(await page.locator('h1').textContent()).toBe('Products of Fjord Ceramics');
      expect(await page.locator('li.card').count()).toBe(3);
      // By name; each picture named by its product, at its fixed size.
      expect(await page.locator('li.card a').allTextContents()).toEqual([
        'Dinner plate',
        'Serving bowl with a name long enough to wrap on a phone screen, hand thrown',
        'Stoneware mug, 350 ml <i>glazed</i>',
      ]);
      const picture = page.getByRole('img', { name: 'Stoneware mug, 350 ml <i>glazed</i>' });
      expect(await picture.boundingBox()).toMatchObject({ width: 96, height: 96 });
      expect(await page.locator('i').count()).toBe(0);
      await page.getByRole('link', { name: 'Stoneware mug, 350 ml <i>glazed</i>' }).click();
      await page.waitForURL(/\/products\/MUG$/);
      expect(await page.locator('h1').textContent()).toBe('Stoneware mug, 350 ml <i>glazed</i>');
    } finally {
      await close();
    }
  });

  it('sorts and filters without JavaScript, and its JSON-LD is the Product the page shows', async () => {
    const { page, close } = await open(`/p/${t.org.slug}/products/MUG`, 375, { javaScriptEnabled: false });
    try {
      const visible = {
        average: await page.locator('.avg').textContent(),
        count: await page.locator('.count').textContent(),
      };
      expect(visible).toEqual({ average: '4.0', count: '4 reviews' });
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
      // schema.org's Product with an AggregateRating: the keys Google's product snippets read.
      expect(ld['@context']).toBe('https://schema.org');
      expect(ld['@type']).toBe('Product');
      expect(ld.name).toBe('Stoneware mug, 350 ml <i>glazed</i>');
      expect(ld.aggregateRating['@type']).toBe('AggregateRating');
      expect(ld.aggregateRating.ratingValue.toFixed(1)).toBe(visible.average);
      expect(`${ld.aggregateRating.reviewCount} reviews`).toBe(visible.count);
      expect(ld.aggregateRating.ratingValue).toBeGreaterThanOrEqual(ld.aggregateRating.worstRating);
      expect(ld.aggregateRating.ratingValue).toBeLessThanOrEqual(ld.aggregateRating.bestRating);
      expect(ld.review.map((r: { reviewRating: { ratingValue: number } }) => r.reviewRating.ratingValue).sort())
        .toEqual([2, 4, 5, 5]);
      expect(ld.review.every((r: { author: { name: string } }) => r.author.name.length > 0)).toBe(true);

      await page.getByRole('link', { name: 'Lowest rated' }).click();
      await page.waitForURL(/sort=lowest/);
      expect(await page.locator('article.review [role=img]').first().getAttribute('aria-label')).toBe(
        'Rated 2 out of 5',
      );
      await page.getByRole('link', { name: '5 ★' }).click();
      await page.waitForURL(/rating=5/);
      expect(await page.locator('[aria-label="Rated 5 out of 5"]').count()).toBe(2);
      expect(page.url()).toContain('sort=lowest');
      await page.getByRole('link', { name: '← Reviews of Fjord Ceramics' }).click();
      await page.waitForURL(new RegExp(`/p/${t.org.slug}$`));
      await page.getByRole('link', { name: /^Products of Fjord Ceramics/ }).click();
      await page.waitForURL(/\/products$/);
    } finally {
      await close();
    }
  });
});
