/// <reference lib="dom" />
// The summary in chromium, made by the worker from real reviews (tests/fixtures/reviews/): the
// widget's business and product modes on a shop's page of another origin show its sentences, each
// linking to the reviews behind it on the public page; there, a sentence opens those reviews. The
// page and the widget have no axe-core violation; screenshots at 375 and 1,280 px go to
// $TEST_TMP_DIR/screenshots (summary-*.png). The live widget draws its first view once, with the
// summary in it: on a shop's page that sums its layout shifts (as tests/widget/browser/
// fragments.test.ts does), nothing moves, at 390 and 1,280 px; a summary that fails, or answers
// after the other reads and the widget's wait, is left out and never inserted later. The summary's
// box (at most 30 % of the widget's height) never shows a half line as if it were all: its bottom
// line's height fades out, so that a line its edge cuts shows as going on, and scrolled to its end
// its last line rests whole above the fade.
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, plainShopPage, useHostSite } from '../../helpers/host-site.ts';
import { productSnippet } from '../../../functions/_shared/core/embed-snippets.ts';
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
let snippet: string;
let worker: HeldClockWorker;
type Summary = { sentences: { text: string; sentiment: string; review_ids: string[]; count: number }[] };
let business: Summary;
let dress: Summary;

beforeAll(async () => {
  t = await createTenant();
  ({ script_url: script, snippet } = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body);
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

/** A shop's plain page with this container (the snippet's, its height reserved), text below it, and its shifts summed. */
const shopPage = (container: string) => plainShopPage(container);

const isSummary = (url: URL) => /\/public\/(summaries\/|products\/.*\/summary$)/.test(url.pathname);

/**
 * The page in a context of its own, whose requests to the API pass through `route` first (the
 * widget's script excepted), once the widget has shown (`plaudit:ready`).
 */
async function openRouted(url: string, width: number, route: (r: Route, summary: boolean) => Promise<void>) {
  const context = await browser().newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(
    (u) => u.href.startsWith(inject('apiUrl')) && !u.pathname.startsWith('/embed/v1/'),
    (r) => route(r, isSummary(new URL(r.request().url()))),
  );
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready === 1);
  return { page, errors, close: () => context.close() };
}

/** Two frames later, so that any shift is reported. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const shift = (page: Page) => page.evaluate(() => (window as unknown as { __shift: number }).__shift);

/**
 * The summary box's bottom edge: whether it scrolls, its mask, whether the fade is a line high,
 * and whether, scrolled to its end, its last sentence rests above the fade.
 */
const summaryEdge = (page: Page) =>
  page.evaluate(async () => {
    const box = document.querySelector('[data-slug]')!.shadowRoot!.querySelector<HTMLElement>('.sy')!;
    const style = getComputedStyle(box);
    const fade = parseFloat(style.paddingBottom);
    const scrolls = box.scrollHeight > box.clientHeight;
    box.scrollTop = box.scrollHeight;
    await new Promise(requestAnimationFrame);
    const last = [...box.querySelectorAll('li')].at(-1)!.getBoundingClientRect();
    return {
      scrolls,
      mask: style.maskImage,
      fadeIsALine: fade >= parseFloat(style.lineHeight),
      lastLineAboveFade: last.bottom <= box.getBoundingClientRect().bottom - fade,
    };
  });

const modes = [
  ['business', () => snippet, () => business],
  [
    'product',
    () =>
      productSnippet(
        t.org.slug,
        { external_id: 'DRESS', name: 'Swing dress' },
        `${inject('apiUrl')}/p/${t.org.slug}`,
        script,
      ),
    () => dress,
  ],
] as const;

describe("the widget's first view", () => {
  for (const [mode, container, summary] of modes) {
    for (const width of [390, 1280]) {
      it(`holds the ${mode}'s summary from the start at ${width} px: nothing moves`, async () => {
        // The other answers wait for the summary's, whatever the machine's load (a widget that
        // reads the summary only once it shows gets them after 5 s, and the summary after).
        let answered!: () => void;
        const summaryIn = new Promise<void>((r) => (answered = r, setTimeout(r, 5_000)));
        const url = site.page(`/first-${mode}-${width}`, shopPage(container()));
        const { page, errors, close } = await openRouted(url, width, async (r, isIt) => {
          if (isIt) return r.fulfill({ response: await r.fetch() }).then(answered);
          await summaryIn;
          await r.continue();
        });
        try {
          await page.waitForFunction(() =>
            document.querySelector('[data-slug]')!.shadowRoot!.querySelector('[role=group] li')
          );
          await frames(page);
          expect((await widgetSummary(page))!.map((s) => s.text)).toEqual(
            summary().sentences.map((s) => expect.stringContaining(s.text)),
          );
          expect(await shift(page)).toBe(0);
          expect(await axeViolations(page, ['[data-slug]'])).toEqual([]);
          await shotOf(page, `first-view-${mode}-${width}`);
          const edge = await summaryEdge(page);
          // On a phone the product's summary overflows its box (the bars above it take their room).
          if (mode === 'product' && width === 390) expect(edge.scrolls).toBe(true);
          expect(edge.mask).toMatch(/^linear-gradient\(0deg, rgba\(0, 0, 0, 0\), rgb\(0, 0, 0\) /);
          expect(edge).toMatchObject({ fadeIsALine: true, lastLineAboveFade: true });
          await shotOf(page, `first-view-${mode}-${width}-scrolled`);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      });
    }

    it(`draws the ${mode} without a summary that fails or answers late, and never inserts it later`, async () => {
      for (const late of [false, true]) {
        const url = site.page(`/without-${mode}-${late}`, shopPage(container()));
        let drawn!: () => void;
        const shown = new Promise<void>((r) => (drawn = r));
        let settled!: () => void;
        const summaryDone = new Promise<void>((r) => (settled = r));
        const { page, errors, close } = await openRouted(url, 1280, async (r, isIt) => {
          if (!isIt) return r.continue();
          if (late) {
            // Its answer reaches the page only once the widget has drawn.
            const answer = await r.fetch();
            await shown;
            await r.fulfill({ response: answer });
          } else await r.abort();
          settled();
        });
        try {
          drawn();
          await summaryDone;
          await frames(page);
          expect(await widgetSummary(page)).toBeNull();
          expect(
            await page.evaluate(() =>
              document.querySelector('[data-slug]')!.shadowRoot!.querySelectorAll('li.r').length
            ),
          ).toBeGreaterThan(0);
          expect(await shift(page)).toBe(0);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      }
    });
  }
});
