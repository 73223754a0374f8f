/// <reference lib="dom" />
// The widget's helpful vote and report link on a host page of another origin: "Helpful (0)"
// counts the visitor's vote through the public API (CORS) and shows the new count, pressed; the
// database holds one vote; "Report" opens the hosted report form of that review; the product
// mode has both too and sorts by most helpful. axe-core finds no violation inside the widget;
// screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { shot } from '../../helpers/dashboard.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();

let t: Tenant;
let ids: string[];
let snippet: string;

beforeAll(async () => {
  t = await createTenant();
  const form = await createForm(t, {});
  ids = await postReviews(form.id, `widget-signals-${t.org.id}`, [
    [5, 'Best beans in town', 'Fruity and bright.', 'Ingrid H.'],
    [4, 'Great coffee', 'Shipping took a week.', 'Lars P.'],
  ]);
  expect(
    (await api('POST', `/api/v1/organizations/${t.org.id}/products`, {
      key: t.keys.write,
      body: { external_id: 'MUG-1', name: 'Enamel mug' },
    })).status,
  ).toBe(201);
  await postReviews(form.id, `widget-signals-mug-${t.org.id}`, [[4, 'Sturdy', 'Survived a trip.', 'Ola N.']], 'MUG-1');
  snippet = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.snippet;
});

/** A review of the widget, inside its shadow root. */
const inWidget = (page: Page, title: string) =>
  page.locator('#service-widget').locator('li.r').filter({ hasText: title });

describe("the widget's helpful votes and reports", () => {
  it('counts a vote through the API and shows the new count; Report opens the hosted form', async () => {
    const url = site.page('/signals', hostPage(snippet));
    for (const width of [1280, 375]) {
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        const review = inWidget(page, 'Great coffee');
        await review.waitFor();
        const button = review.getByRole('button', { name: /^Helpful/ });
        if (width === 1280) {
          expect(await button.textContent()).toBe('Helpful (0)');
          await button.click();
          await review.getByRole('button', { name: 'Helpful (1)' }).waitFor();
          expect(await button.getAttribute('aria-pressed')).toBe('true');
        }
        const report = review.getByRole('link', { name: 'Report' });
        expect(await report.getAttribute('href')).toBe(`${inject('apiUrl')}/p/${t.org.slug}/reviews/${ids[1]}/report`);
        expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
        expect(errors).toEqual([]);
        await shot(page, `widget-signals-${width}`);
      } finally {
        await close();
      }
    }
    const [row] = await db`select helpful_count from plaudit.reviews where id = ${ids[1]}`;
    expect(row.helpful_count).toBe(1);
    // The report link's page takes a report.
    const form = await fetch(`${inject('apiUrl')}/p/${t.org.slug}/reviews/${ids[1]}/report`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Report a review');
  });

  it("remembers the visitor's own vote after a reload, over a cached count that does not hold it yet", async () => {
    const url = site.page('/signals-remembered', hostPage(snippet));
    const { page, errors, close } = await openPage(browser(), url, 1280, { bypassCSP: true });
    try {
      // The embed answer as a shared cache keeps it: the count it held before this visitor's vote.
      let cachedCount = 0;
      await page.route(`**/api/v1/public/embed/${t.org.slug}`, async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        for (const r of body.reviews) if (r.id === ids[0]) r.helpful_count = cachedCount;
        await route.fulfill({ response: res, json: body });
      });
      await page.reload();
      const review = inWidget(page, 'Best beans in town');
      const button = review.getByRole('button', { name: /^Helpful/ });
      await review.waitFor();
      expect(await button.textContent()).toBe('Helpful (0)');
      expect(await button.getAttribute('aria-pressed')).toBe('false');
      await button.click();
      await review.getByRole('button', { name: 'Helpful (1)' }).waitFor();
      // After a reload (on a phone's width too), the cached answer still says 0: the visitor's vote
      // is added, and the button is pressed.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.reload();
        await review.waitFor();
        expect(await button.textContent()).toBe('Helpful (1)');
        expect(await button.getAttribute('aria-pressed')).toBe('true');
      }
      // Once the cache holds it (and another visitor's), it is not added twice.
      cachedCount = 2;
      await page.reload();
      await review.waitFor();
      expect(await button.textContent()).toBe('Helpful (2)');
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      // A review this visitor did not vote for is as the answer says.
      expect(
        await inWidget(page, 'Great coffee').getByRole('button', { name: /^Helpful/ }).getAttribute('aria-pressed'),
      )
        .toBe('false');
      expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('in product mode: votes too, and sorts by most helpful', async () => {
    const productSnippet = snippet.replace('<div id="service-widget"', '<div id="service-widget" data-product="MUG-1"');
    const url = site.page('/signals-product', hostPage(productSnippet));
    const { page, errors, close } = await openPage(browser(), url, 1280, { bypassCSP: true });
    try {
      const review = inWidget(page, 'Sturdy');
      await review.waitFor();
      await review.getByRole('button', { name: 'Helpful (0)' }).click();
      await review.getByRole('button', { name: 'Helpful (1)' }).waitFor();
      const sort = page.locator('#service-widget').getByRole('combobox');
      expect(await sort.locator('option').allTextContents()).toContain('Most helpful');
      await sort.selectOption('helpful');
      await review.waitFor();
      expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
