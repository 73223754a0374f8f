/// <reference lib="dom" />
// Attribute ratings in chromium: the widget's product mode on a shop's page of another origin, the
// product's public page and the business's profile page show each scale field as labelled bars
// with counts and each rating field as its mean stars, at a phone's and a desktop's width, with
// no overflow and no accessibility violation; the hosted form asks a scale as a radio group and a
// rating as stars, reachable by their labels. Screenshots go to $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';

const browser = useBrowser();
const site = useHostSite();
const FIT = ['Runs small', 'True to size', 'Runs large'];

let t: Tenant;
let script: string;
let formId: string;

/** Reviews with answers, through the SQL every submission runs. */
async function post(answers: [number, string | null, Record<string, unknown>][], product: string | null) {
  for (const [i, [rating, fit, extra]] of answers.entries()) {
    const review = {
      form_id: formId,
      rating,
      title: null,
      content: `Wore them for a week, review ${i} of ${product ?? 'the shop'}.`,
      reviewer_name: `Reviewer ${i}`,
      reviewer_email: `r${i}-${product ?? 'shop'}-${t.org.slug}@example.com`,
      product_external_id: product,
      custom_fields: { ...(fit ? { fit } : {}), ...extra },
    };
    const [row] = await db`
      select error_message from plaudit.submit_review(
        jsonb_populate_record(null::plaudit.review_submission, ${db.json(review)}),
        ${`fixture:attrs:${t.org.slug}:${product}:${i}`}, 1000, 'http://127.0.0.1')`;
    expect(row.error_message).toBeNull();
  }
}

beforeAll(async () => {
  t = await createTenant();
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { enabled: true },
  });
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [{ external_id: 'BOOT', name: 'Hiking boot' }]);
  const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: {
      name: 'Fit',
      custom_fields: [
        { key: 'fit', label: 'How do they fit?', type: 'scale', scale: FIT },
        { key: 'comfort', label: 'Comfort', type: 'rating' },
      ],
    },
  });
  expect(form.status).toBe(201);
  formId = form.body.id;
  await post([
    [5, 'True to size', { comfort: 5 }],
    [4, 'True to size', { comfort: 4 }],
    [4, 'Runs small', { comfort: 4 }],
    [5, 'True to size', {}],
    [3, 'Runs large', { comfort: 3 }],
  ], 'BOOT');
  await post([[5, 'Runs small', { comfort: 5 }], [4, 'True to size', {}]], null);
});

const shot = (name: string) => path.join(screenshotDir(), `attributes-${name}.png`);

describe('attribute ratings', () => {
  for (const width of [375, 1280]) {
    it(`show in the widget's product mode at ${width} px`, async () => {
      const url = site.page(
        `/boot-${width}`,
        hostPage(
          `<div data-plaudit-widget data-slug="${t.org.slug}" data-product="BOOT"><a href="/reviews">Reviews</a></div><script async src="${script}"></script>`,
        ),
      );
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        await page.waitForFunction(() => !!document.querySelector('[data-product]')?.shadowRoot?.querySelector('.at'));
        const seen = await page.evaluate(() => {
          const root = document.querySelector('[data-product]')!.shadowRoot!;
          return {
            terms: [...root.querySelectorAll('.at dt')].map((e) => e.textContent),
            bars: [...root.querySelectorAll('.at li')].map((e) => e.textContent),
            stars: root.querySelector('.at dd [role=img]')?.getAttribute('aria-label'),
          };
        });
        expect(seen.terms).toEqual(['How do they fit?', 'Comfort']);
        expect(seen.bars).toEqual(['Runs small1', 'True to size3', 'Runs large1']);
        expect(seen.stars).toMatch(/4/);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: shot(`widget-${width}`), fullPage: true });
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });

    it(`show on the product's and the business's pages at ${width} px`, async () => {
      for (
        const [name, address, bars] of [
          ['product', `/p/${t.org.slug}/products/BOOT`, ['Runs small1', 'True to size3', 'Runs large1']],
          ['profile', `/p/${t.org.slug}`, ['Runs small1', 'True to size1', 'Runs large0']],
        ] as const
      ) {
        const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
        const page = await context.newPage();
        try {
          expect((await page.goto(`${inject('apiUrl')}${address}`))?.status()).toBe(200);
          const section = page.getByRole('region', { name: 'What reviewers say' });
          const fit = section.getByRole('list', { name: 'How do they fit?' });
          expect(await fit.locator('li').allTextContents()).toEqual(bars);
          await expect.poll(() => section.getByRole('heading', { name: 'Comfort' }).count()).toBe(1);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(width);
          await page.screenshot({ path: shot(`${name}-page-${width}`), fullPage: true });
          expect(await axeViolations(page)).toEqual([]);
        } finally {
          await context.close();
        }
      }
    });
  }

  it("are in the product's fragment, which the widget adopts without moving them", async () => {
    const fragment = (await api('GET', `/api/v1/public/fragments/${t.org.slug}/products/BOOT.html`)).body as string;
    const url = site.page(
      '/boot-fragment',
      hostPage(`<script>
  window.__shift = 0;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('plaudit:ready', () => { window.__ready = 1; });
</script>${fragment}<script async src="${script}"></script>`),
    );
    const { page, errors, close } = await openPage(browser(), url, 375, { bypassCSP: true });
    try {
      await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready === 1);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await page.locator('.at li').allTextContents()).toEqual(['Runs small1', 'True to size3', 'Runs large1']);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
      await page.screenshot({ path: shot('fragment-375'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('are asked on the hosted form as a radio group and star radios, by their labels', async () => {
    const context = await browser().newContext({ viewport: { width: 375, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    try {
      await page.goto(`${inject('apiUrl')}/forms/${formId}`);
      const fit = page.getByRole('group', { name: 'How do they fit? (optional)' });
      await fit.getByRole('radio', { name: 'True to size' }).check();
      const comfort = page.getByRole('group', { name: 'Comfort (optional)' });
      await comfort.getByRole('radio', { name: '4 stars' }).check();
      expect(await comfort.getByRole('radio').count()).toBe(5);
      await page.screenshot({ path: shot('hosted-form-375'), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
