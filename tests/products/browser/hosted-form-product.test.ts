/// <reference lib="dom" />
// A review of one product through the hosted form in a real browser: the page shows the product
// (name, image with its alt) above the rating, the review sent is of that product as the API lists
// it, and the page passes axe-core at a phone's and a desktop's width.
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';

const browser = useBrowser();

// The product's image, served to the page by the test (the pages load images over https only).
const MUG_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120"><rect width="120" height="120" fill="#eef2f6"/>
<rect x="30" y="35" width="50" height="55" rx="6" fill="#1f6feb"/><path d="M80 48h8a10 10 0 0 1 0 20h-8" stroke="#1f6feb"
stroke-width="6" fill="none"/></svg>`;

describe('the hosted form of a product in a browser', () => {
  it('shows the product, sends a review of it, and passes axe-core', { timeout: 60_000 }, async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const product = await api('POST', `/api/v1/organizations/${t.org.id}/products`, {
      key: t.keys.write,
      body: { external_id: 'MUG-S', name: 'Small mug <blue>', image_url: 'https://images.plaudit.test/mug.svg' },
    });
    expect(product.status).toBe(201);
    const page = await browser().newPage({ viewport: { width: 375, height: 812 } });
    await page.route(
      'https://images.plaudit.test/**',
      (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: MUG_SVG }),
    );
    try {
      await page.goto(`${inject('apiUrl')}/forms/${form.id}?product=MUG-S`);
      await page.getByRole('heading', { level: 1, name: 'Your review of Small mug <blue>' }).waitFor();
      const image = page.getByRole('img', { name: 'Small mug <blue>' });
      await image.waitFor();
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // The product comes before the rating.
      const imageTop = (await image.boundingBox())!.y;
      expect(imageTop).toBeLessThan((await page.getByRole('group', { name: 'Your rating' }).boundingBox())!.y);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: path.join(screenshotDir(), `hosted-form-product-${width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
      }

      await page.getByLabel('5 stars').check();
      await page.getByLabel('Your review').fill('Just the right size for espresso.');
      await page.getByLabel('Your name').fill('Rita');
      await page.getByLabel('Your e-mail address').fill(`rita-${t.org.slug}@example.com`);
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();

      const listed = await api('GET', `/api/v1/organizations/${t.org.id}/reviews?product_external_id=MUG-S`, {
        key: t.keys.read,
      });
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({
        rating: 5,
        content: 'Just the right size for espresso.',
        product: { id: product.body.id, external_id: 'MUG-S', name: 'Small mug <blue>' },
      });
    } finally {
      await page.close();
    }
  });
});
