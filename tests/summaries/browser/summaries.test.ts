/// <reference lib="dom" />
// The summary in chromium, made by the worker from real reviews (tests/fixtures/reviews/): the
// widget's business and product modes on a shop's page of another origin show its sentences, each
// linking to the reviews behind it on the public page; there, a sentence opens those reviews. The
// page and the widget have no axe-core violation; screenshots at 375 and 1,280 px go to
// $TEST_TMP_DIR/screenshots (summary-*.png).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { asSpecs, datasetReviews } from '../../helpers/summaries.ts';
import { type HeldClockWorker, heldClockWorker } from '../../helpers/summary-worker.ts';

const browser = useBrowser();
const site = useHostSite();

let t: Tenant;
let script: string;
let worker: HeldClockWorker;
type Summary = { sentences: { text: string; sentiment: string; review_ids: string[]; count: number }[] };
let business: Summary;
let dress: Summary;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [{ external_id: 'DRESS', name: 'Swing dress' }]);
  const form = await createForm(t, {});
  const data = datasetReviews();
  await postReviews(form.id, `${t.org.slug}-biz`, asSpecs(data.filter((r) => r.clothing_id === '862')));
  await postReviews(form.id, `${t.org.slug}-dress`, asSpecs(data.filter((r) => r.clothing_id === '895')), 'DRESS');
  worker = heldClockWorker([t.org.id]);
  await worker.drain();
  business = (await api('GET', `/api/v1/public/summaries/${t.org.slug}`)).body;
  dress = (await api('GET', `/api/v1/public/products/${t.org.slug}/DRESS/summary`)).body;
  expect(business.sentences.length).toBeGreaterThan(0);
  expect(dress.sentences.length).toBeGreaterThan(0);
}, 120_000);

afterAll(() => worker?.stop());

const shotOf = (page: Page, name: string) =>
  page.screenshot({ path: path.join(screenshotDir(), `summary-${name}.png`), fullPage: true });

/** The summary a widget shows, read inside its shadow root: each sentence's text and link. */
function widgetSummary(page: Page) {
  return page.evaluate(() => {
    const group = document.querySelector('[data-slug]')!.shadowRoot!.querySelector('[role=group]');
    return group
      ? [...group.querySelectorAll('li')].map((li) => ({
        text: li.textContent,
        href: li.querySelector('a')!.getAttribute('href'),
      }))
      : null;
  });
}

describe('the widget', () => {
  for (const width of [375, 1280]) {
    it(`shows the business's and the product's summary at ${width} px, each sentence linking to its reviews`, async () => {
      const pageUrl = `${inject('apiUrl')}/p/${t.org.slug}`;
      for (
        const [mode, attrs, summary, linkBase] of [
          ['business', '', business, pageUrl],
          ['product', 'data-product="DRESS"', dress, `${pageUrl}/products/DRESS`],
        ] as const
      ) {
        const url = site.page(
          `/${mode}-${width}`,
          hostPage(`<div id="service-widget" data-slug="${t.org.slug}" ${attrs}><a href="/r">Reviews</a></div>
<script async src="${script}"></script>`),
        );
        const { page, errors, close } = await openPage(browser(), url, width);
        try {
          await page.waitForFunction(() =>
            document.querySelector('[data-slug]')?.shadowRoot?.querySelector('[role=group] li')
          );
          const shown = (await widgetSummary(page))!;
          expect(shown).toHaveLength(summary.sentences.length);
          summary.sentences.forEach((s, i) => {
            expect(shown[i].text).toContain(s.text);
            expect(shown[i].text).toContain(`${s.count} review${s.count === 1 ? '' : 's'}`);
            expect(shown[i].href).toBe(`${linkBase}#summary-${i}`);
          });
          expect(await axeViolations(page, ['[data-slug]'])).toEqual([]);
          await shotOf(page, `widget-${mode}-${width}`);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      }
    });
  }
});

describe('the public page', () => {
  for (const width of [375, 1280]) {
    it(`opens a sentence's reviews at ${width} px`, async () => {
      const { page, errors, close } = await openPage(
        browser(),
        `${inject('apiUrl')}/p/${t.org.slug}/products/DRESS#summary-0`,
        width,
      );
      try {
        const first = page.locator('#summary-0');
        await expect(first.locator('summary').textContent()).resolves.toContain(dress.sentences[0].text);
        expect(await first.locator('ol li').first().isVisible()).toBe(false);
        await first.locator('summary').click();
        const cited = first.locator('ol li');
        expect(await cited.count()).toBe(Math.min(10, dress.sentences[0].count));
        expect(await cited.first().isVisible()).toBe(true);
        expect(await page.locator('#summary li[id^="summary-"]').count()).toBe(dress.sentences.length);
        expect(await axeViolations(page)).toEqual([]);
        await shotOf(page, `page-product-${width}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it("shows the business's summary on its page", async () => {
    const { page, close } = await openPage(browser(), `${inject('apiUrl')}/p/${t.org.slug}`, 1280);
    try {
      expect(await page.locator('#summary li[id^="summary-"]').count()).toBe(business.sentences.length);
      await page.locator('#summary-0 summary').click();
      expect(await page.locator('#summary-0 ol li').count()).toBe(Math.min(10, business.sentences[0].count));
      expect(await axeViolations(page)).toEqual([]);
      await shotOf(page, 'page-business-1280');
    } finally {
      await close();
    }
  });
});
