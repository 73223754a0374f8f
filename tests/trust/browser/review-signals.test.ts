/// <reference lib="dom" />
// A visitor's helpful vote and report on the public pages, in a real browser with JavaScript off
// (plain forms): "Helpful (0)" on the profile page counts the vote and comes back to the same list,
// counted and thanked, and a second click counts nothing; "Report" opens the report form, which
// shows the review reported and takes a reason with details and thanks the visitor (the report is open for the business; the
// review stays published; a report without a reason: tests/trust/api/shopper-signals.test.ts); a product's page votes and comes back to itself. axe-core
// finds no violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { shot } from '../../helpers/dashboard.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');

let t: Tenant;
let ids: string[];
let productReview: string;

beforeAll(async () => {
  t = await createTenant();
  const form = await createForm(t, {});
  ids = await postReviews(form.id, `signals-page-${t.org.id}`, [
    [5, 'Best beans in town', 'Fruity and bright; delivered in two days.', 'Ingrid H.'],
    [1, 'Scam', 'Buy cheap followers at example.net!!!', 'Spam Bot'],
  ]);
  const product = await api('POST', `/api/v1/organizations/${t.org.id}/products`, {
    key: t.keys.write,
    body: { external_id: 'MUG-1', name: 'Enamel mug' },
  });
  expect(product.status).toBe(201);
  [productReview] = await postReviews(form.id, `signals-product-${t.org.id}`, [
    [4, 'Sturdy', 'Survived a camping trip.', 'Ola N.'],
  ], 'MUG-1');
});

/** A page with JavaScript off, as the pages are meant to work. */
async function open(path: string, width = 1280): Promise<Page> {
  const context = await browser().newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${base()}${path}`);
  return page;
}

/** No violation and nothing scrolling sideways at both widths, with a screenshot of each. */
async function checkAndShoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    // axe-core needs a script: it runs in a context of its own with the page's HTML.
    const html = await page.content();
    const check = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const copy = await check.newPage();
    try {
      await copy.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: html }));
      await copy.goto(page.url());
      expect(await axeViolations(copy), `${name} at ${width}`).toEqual([]);
      expect(await copy.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    } finally {
      await check.close();
    }
    await shot(page, `${name}-${width}`);
  }
}

const review = (page: Page, title: string) => page.locator('article.review').filter({ hasText: title });

describe('helpful votes and reports on the public pages, without JavaScript', () => {
  it('counts a vote from the profile page and comes back to the same list, thanked', async () => {
    const page = await open(`/p/${t.org.slug}?sort=oldest`);
    try {
      const first = review(page, 'Best beans in town');
      expect(await first.getByRole('button').textContent()).toBe('Helpful (0)');
      await first.getByRole('button', { name: /Helpful/ }).click();
      await page.waitForURL((u) => u.searchParams.get('helpful') === ids[0]);
      const url = new URL(page.url());
      expect(url.pathname).toBe(`/p/${t.org.slug}`);
      expect(url.searchParams.get('sort')).toBe('oldest');
      expect(url.hash).toBe(`#review-${ids[0]}`);
      expect(await review(page, 'Best beans in town').getByRole('button').textContent()).toBe('Helpful (1)');
      expect(await review(page, 'Best beans in town').getByRole('status').textContent()).toBe(
        'Thank you for your vote',
      );
      await checkAndShoot(page, 'signals-profile-voted');
      // The same visitor again: nothing more is counted.
      await review(page, 'Best beans in town').getByRole('button', { name: /Helpful/ }).click();
      await page.waitForLoadState();
      expect(await review(page, 'Best beans in town').getByRole('button').textContent()).toBe('Helpful (1)');
    } finally {
      await page.context().close();
    }
    const [row] = await db`select helpful_count from plaudit.reviews where id = ${ids[0]}`;
    expect(row.helpful_count).toBe(1);
  });

  it('reports a review through the report form, and the review stays published', async () => {
    const page = await open(`/p/${t.org.slug}`);
    try {
      await review(page, 'Scam').getByRole('link', { name: 'Report' }).click();
      await page.getByRole('heading', { name: 'Report a review' }).waitFor();
      // The review concerned is shown above the form: its stars, title, text and reviewer.
      const quoted = page.getByRole('figure', { name: 'The review you are reporting' });
      expect(await quoted.getByRole('img', { name: 'Rated 1 out of 5' }).count()).toBe(1);
      expect(await quoted.textContent()).toMatch(/Scam[^]*Buy cheap followers at example\.net!!![^]*Spam Bot/);
      await checkAndShoot(page, 'signals-report-form');
      await page.getByLabel('Spam or advertising').check();
      await page.getByLabel(/Details/).fill('A link to buy followers.');
      await page.getByRole('button', { name: 'Send report' }).click();
      await page.getByRole('heading', { name: 'Thank you for your report' }).waitFor();
      await checkAndShoot(page, 'signals-report-thanks');
      await page.getByRole('link', { name: /Back to the reviews/ }).click();
      expect(new URL(page.url()).pathname).toBe(`/p/${t.org.slug}`);
      expect(await review(page, 'Scam').count()).toBe(1);
    } finally {
      await page.context().close();
    }
    const reports = await db`select reason, details, status from plaudit.review_reports where review_id = ${ids[1]}`;
    expect(reports).toEqual([{ reason: 'spam', details: 'A link to buy followers.', status: 'open' }]);
  });

  it("votes from a product's page and comes back to it", async () => {
    const page = await open(`/p/${t.org.slug}/products/MUG-1`, 375);
    try {
      await review(page, 'Sturdy').getByRole('button', { name: /Helpful/ }).click();
      await page.waitForURL((u) => u.searchParams.get('helpful') === productReview);
      expect(new URL(page.url()).pathname).toBe(`/p/${t.org.slug}/products/MUG-1`);
      expect(await review(page, 'Sturdy').getByRole('button').textContent()).toBe('Helpful (1)');
      await checkAndShoot(page, 'signals-product-voted');
    } finally {
      await page.context().close();
    }
  });
});
