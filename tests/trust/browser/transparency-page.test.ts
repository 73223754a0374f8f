/// <reference lib="dom" />
// The transparency page in a real browser: reached from the profile page's link, its figures
// those of the report, readable at a phone's and a desktop's width, no accessibility violation;
// screenshots are written for people to look at ($TEST_TMP_DIR/screenshots).
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');

let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { display_name: 'Fjord Coffee Roasters' },
  });
  const plain = await createForm(t, {});
  const offered = await createForm(t, { incentive: { type: 'discount', description: '10% off your next bag' } });
  await createForm(t, { verification_mode: 'manual' });
  const ids = await postReviews(plain.id, t.org.slug, [
    [5, 'Best beans in town', 'Fruity and bright.', 'Ingrid H.'],
    [1, 'Buy cheap watches', 'www.watches.example', 'Spam Bot'],
  ]);
  await postReviews(offered.id, `${t.org.slug}-offered`, [[4, null, 'Lovely espresso blend.', 'Lars P.']]);
  const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${ids[1]}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Spam' },
  });
  expect(hidden.status).toBe(200);
});

describe('the transparency page in a browser', () => {
  for (const width of [375, 1280]) {
    it(`is linked from the profile and reads well at ${width} px, with no accessibility violation`, async () => {
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/p/${t.org.slug}`);
        await page.getByRole('link', { name: 'How Fjord Coffee Roasters collects and publishes reviews' }).click();
        await page.waitForURL(/\/transparency$/);
        expect(await page.locator('h1').textContent()).toBe('How Fjord Coffee Roasters collects and publishes reviews');
        const report = (await api('GET', `/api/v1/public/transparency/${t.org.slug}`)).body;
        const row = (caption: string, name: string) =>
          page.getByRole('table', { name: caption }).getByRole('row', { name: new RegExp(`^${name}`) });
        expect(await row('Reviews received and published', 'Received').locator('td').allTextContents())
          .toEqual([String(report.received.all_time), String(report.received.last_12_months)]);
        expect(await row('Reviews received and published', 'Hidden by the business').locator('td').allTextContents())
          .toEqual(['–', '1']);
        expect(
          await row('Of the published reviews of the last 12 months', 'Written for an incentive').locator('td')
            .allTextContents(),
        ).toEqual(['1', '50.0%']);
        const months = page.getByRole('table', { name: 'Reviews hidden by the business, by month and reason' });
        expect(await months.locator('tbody tr').count()).toBe(12);
        expect(await months.locator('tbody tr').last().locator('td').allTextContents()).toEqual(['1', 'Spam (1)']);
        expect(await page.locator('.hash').first().textContent()).toBe(report.moderation_chain.head);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(screenshotDir(), `transparency-${width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
