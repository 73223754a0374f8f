/// <reference lib="dom" />
// The page of a review request that names two products, in a real browser: the customer rates both
// products and the business, each form on its own (the stars by keyboard in one of them), and the
// API lists three reviews, each verified by the invitation and each with its product.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';

const browser = useBrowser();

// The product's picture, served to the browser in place of the (unreachable) shop's.
const MUG_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#dbe9ff"/>
<path d="M18 20h24v26a6 6 0 0 1-6 6H24a6 6 0 0 1-6-6z" fill="#1f6feb"/><path d="M42 26h4a6 6 0 0 1 0 12h-4" fill="none" stroke="#1f6feb" stroke-width="4"/></svg>`;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshotDir(), `request-products-${name}.png`), fullPage: true });
}

describe('a review request with products, in a browser', () => {
  it('the customer rates both products and the business; each review is verified and has its product', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const orgPath = `/api/v1/organizations/${t.org.id}`;
    for (
      const product of [
        { external_id: 'MUG-BLUE', name: 'Stoneware mug <Blue>', image_url: 'https://img.example/mug.svg' },
        { external_id: 'TEE-M', name: 'Organic cotton tee, size M' },
      ]
    ) {
      expect((await api('POST', `${orgPath}/products`, { key: t.keys.write, body: product })).status).toBe(201);
    }
    const created = await api('POST', `${orgPath}/review-requests`, {
      key: t.keys.write,
      body: { email: `rp-${t.org.slug}@example.com`, name: 'Kim', form_id: form.id, products: ['MUG-BLUE', 'TEE-M'] },
    });
    expect(created.status).toBe(201);
    const [{ token }] = await db`select plaudit.review_request_token(${created.body.id}) as token`;

    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await page.route(
      'https://img.example/**',
      (route) => route.fulfill({ contentType: 'image/svg+xml', body: MUG_SVG }),
    );
    try {
      await page.goto(`${inject('apiUrl')}/r/${token}`);
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
      const mug = page.getByRole('region', { name: 'Stoneware mug <Blue>' });
      const tee = page.getByRole('region', { name: 'Organic cotton tee, size M' });
      const business = page.getByRole('region', { name: `Your experience with ${t.org.name}` });
      expect(await mug.getByRole('img', { name: 'Stoneware mug <Blue>' }).isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'before-1280');
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(page, 'before-375');
      await page.setViewportSize({ width: 1280, height: 900 });

      // The mug: four stars, a few words, sent; the page comes back thanking for it in its place.
      await mug.getByLabel('4 stars').check();
      await mug.getByLabel('Your review').fill('Keeps the tea hot, and the glaze is lovely.');
      await mug.getByRole('button', { name: 'Send my review of this product' }).click();
      await mug.getByText('Thank you — your review of Stoneware mug <Blue> is in.').waitFor();
      expect(await mug.locator('form').count()).toBe(0);

      // The tee by keyboard: into its stars, then to five with the arrow keys.
      await tee.getByLabel('3 stars').check();
      await tee.getByLabel('3 stars').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await tee.getByLabel('5 stars').isChecked()).toBe(true);
      await tee.getByLabel('Your review').fill('Soft, and it kept its shape in the wash.');
      await tee.getByRole('button', { name: 'Send my review of this product' }).click();
      await tee.getByText('Thank you — your review of Organic cotton tee, size M is in.').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'after-two-1280');

      await business.getByLabel('5 stars').check();
      await business.getByLabel('Your review').fill('Quick delivery and a kind note in the parcel.');
      await business.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you, your reviews are in' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'after-1280');
    } finally {
      await page.close();
    }

    const reviews = await api('GET', `${orgPath}/reviews`, { key: t.keys.read });
    expect(reviews.body.meta.total).toBe(3);
    const byProduct = new Map(
      reviews.body.data.map((r: { product: { external_id: string } | null }) => [r.product?.external_id ?? null, r]),
    );
    expect(byProduct.get('MUG-BLUE')).toMatchObject({
      rating: 4,
      product: { external_id: 'MUG-BLUE', name: 'Stoneware mug <Blue>' },
    });
    expect(byProduct.get('TEE-M')).toMatchObject({ rating: 5, product: { external_id: 'TEE-M' } });
    expect(byProduct.get(null)).toMatchObject({ rating: 5, product: null });
    for (const r of reviews.body.data) {
      expect(r).toMatchObject({
        verification_status: 'verified',
        verification_method: 'invitation',
        reviewer_name: 'Kim',
        reviewer_email: `rp-${t.org.slug}@example.com`,
      });
    }
    const request = await api('GET', `${orgPath}/review-requests/${created.body.id}`, { key: t.keys.read });
    expect(request.body).toMatchObject({
      status: 'completed',
      products: [{ external_id: 'MUG-BLUE' }, { external_id: 'TEE-M' }],
    });
  });
});
