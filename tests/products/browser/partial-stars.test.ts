/// <reference lib="dom" />
// An average between whole stars in chromium: 4.75 is drawn as four stars and three quarters of a
// fifth (a gold star clipped to the fraction over a grey one), and named "Rated 4.75 out of 5",
// on the product's page, in the catalog, in the widget's product mode and in its stars mode, at a
// phone's and a desktop's width. Screenshots of the stars go to $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
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
  await syncProducts(t, [{ external_id: 'JUG', name: 'Water jug' }]);
  const form = await createForm(t, {});
  await postReviews(form.id, `${t.org.slug}-jug`, [
    [5, null, 'Pours well.', 'Ann'],
    [5, null, 'Lovely.', 'Bo'],
    [5, null, 'Heavy but fine.', 'Cy'],
    [4, null, 'A little small.', 'Di'],
  ], 'JUG');
});

/**
 * How much of the stars is filled, as the share of their width the filled layer shows (its
 * clip-path's right inset resolved against the element), and their accessible name.
 */
function drawnStars(stars: Locator) {
  return stars.evaluate((el) => {
    const after = getComputedStyle(el, '::after');
    const before = getComputedStyle(el, '::before');
    const width = el.getBoundingClientRect().width;
    // inset(0px calc(100% - 95%) 0px 0px), or a resolved length.
    const inset = after.clipPath.match(/^inset\(\S+ (.+?) \S+ \S+\)$/)?.[1] ?? '';
    const probe = document.createElement('div');
    probe.style.cssText = `position:absolute;width:${width}px`;
    const inner = document.createElement('div');
    inner.style.width = inset;
    probe.append(inner);
    el.append(probe);
    const clipped = inner.getBoundingClientRect().width;
    probe.remove();
    return {
      label: el.getAttribute('aria-label'),
      filled: Math.round(((width - clipped) / width) * 100),
      under: before.content,
      full: after.content,
    };
  });
}

const FOUR_AND_THREE_QUARTERS = {
  label: 'Rated 4.75 out of 5',
  filled: 95,
  under: '"★★★★★"',
  full: '"★★★★★"',
};

describe('an average of 4.75', () => {
  for (const width of [390, 1280]) {
    it(`is drawn as four stars and three quarters on the pages at ${width} px`, async () => {
      // Three device pixels a CSS pixel: the screenshot shows the fifth star's fraction.
      const context = await browser().newContext({
        viewport: { width, height: 900 },
        bypassCSP: true,
        deviceScaleFactor: 3,
      });
      const page = await context.newPage();
      try {
        await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/products/JUG`);
        const score = page.locator('section.score .stars-row');
        expect(await drawnStars(score)).toEqual(FOUR_AND_THREE_QUARTERS);
        await score.screenshot({ path: path.join(screenshotDir(), `stars-4.75-page-${width}.png`) });
        // A review's own stars are whole.
        expect(await drawnStars(page.locator('article.review .stars-row').last())).toEqual({
          ...FOUR_AND_THREE_QUARTERS,
          label: 'Rated 5 out of 5',
          filled: 100,
        });
        expect(await axeViolations(page)).toEqual([]);
        await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/products`);
        expect(await drawnStars(page.locator('.card .stars-row'))).toEqual(FOUR_AND_THREE_QUARTERS);
      } finally {
        await context.close();
      }
    });

    it(`is drawn as four stars and three quarters by the widget at ${width} px`, async () => {
      const url = site.page(
        `/jug-${width}`,
        hostPage(
          `<div data-plaudit-widget data-slug="${t.org.slug}" data-product="JUG" style="display:block;height:560px"><a href="/r">Reviews</a></div>
<p>Also: <span data-plaudit-widget data-slug="${t.org.slug}" data-product="JUG" data-mode="stars" style="display:block;height:24px"><a href="/r">Reviews</a></span></p>
<script async src="${script}"></script>`,
        ),
      );
      const { page, errors, close } = await openPage(browser(), url, width);
      try {
        await page.waitForFunction(() =>
          [...document.querySelectorAll('[data-product]')].every((el) => el.shadowRoot?.querySelector('.w'))
        );
        const head = page.locator('div[data-product] .head [role=img]');
        expect(await drawnStars(head)).toEqual(FOUR_AND_THREE_QUARTERS);
        await head.screenshot({ path: path.join(screenshotDir(), `stars-4.75-widget-${width}.png`) });
        const line = page.locator('[data-mode=stars] .sm');
        expect(await line.getAttribute('aria-label')).toBe('Rated 4.75 out of 5, 4 reviews');
        expect({ ...(await drawnStars(line.locator('.st'))), label: null }).toEqual({
          ...FOUR_AND_THREE_QUARTERS,
          label: null,
        });
        expect(await axeViolations(page as Page, ['[data-product]'])).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
