/// <reference lib="dom" />
// A product group's page and widget in chromium, at a phone's and a desktop's width: the group's
// reviews show together, and each review of another product of the group names the product it was
// written about ("Variant: …"); the product viewed's own reviews carry no label. axe-core finds no
// violation; screenshots go to $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();
let t: Tenant;
let script: string;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [
    { external_id: 'TEE-S', name: 'Linen tee, small <b>sand</b>', group: 'tee' },
    { external_id: 'TEE-L', name: 'Linen tee, large', group: 'tee' },
  ]);
  const form = await createForm(t, {});
  await postReviews(form.id, `${t.org.slug}-s`, [[5, 'Fits well', 'Soft and light.', 'Ann']], 'TEE-S');
  await postReviews(form.id, `${t.org.slug}-l`, [[4, 'Roomy', 'A little long.', 'Bo']], 'TEE-L');
});

/** Each review's title and the variant it names (null: none), in the order shown. */
const labels = (page: Page, reviews: string, title: string, label: string) =>
  page.locator(reviews).evaluateAll(
    (els, [t, l]) => els.map((e) => [e.querySelector(t)!.textContent, e.querySelector(l)?.textContent ?? null]),
    [title, label],
  );

describe("a group's reviews name their variant", () => {
  for (const width of [390, 1280]) {
    it(`on the product's page at ${width} px`, async () => {
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/products/TEE-S`);
        expect(await labels(page, 'article.review', 'h3', '.variant')).toEqual([
          ['Roomy', 'Variant: Linen tee, large'],
          ['Fits well', null],
        ]);
        await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/products/TEE-L`);
        expect(await labels(page, 'article.review', 'h3', '.variant')).toEqual([
          ['Roomy', null],
          ['Fits well', 'Variant: Linen tee, small <b>sand</b>'],
        ]);
        await page.screenshot({
          path: path.join(screenshotDir(), `product-variant-labels-${width}.png`),
          fullPage: true,
        });
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(`in the widget's product mode at ${width} px`, async () => {
      const url = site.page(
        `/tee-${width}`,
        hostPage(
          `<div data-plaudit-widget data-slug="${t.org.slug}" data-product="TEE-S" style="display:block;height:560px"><a href="/r">Reviews</a></div>
<script async src="${script}"></script>`,
        ),
      );
      const { page, errors, close } = await openPage(browser(), url, width);
      try {
        await page.waitForFunction(() => !!document.querySelector('[data-product]')?.shadowRoot?.querySelector('.r'));
        expect(await labels(page, '[data-product] .items > li.r', '.title', '.vr')).toEqual([
          ['Roomy', 'Variant: Linen tee, large'],
          ['Fits well', null],
        ]);
        await page.screenshot({ path: path.join(screenshotDir(), `widget-variant-labels-${width}.png`) });
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
