/// <reference lib="dom" />
// The hosted report form as a notice of illegal content (EU DSA Art. 16), in a real browser with
// JavaScript off: the visitor says the review is illegal; sent without the law or the good-faith
// statement, the form comes back with both errors tied to their fields and what was typed kept;
// with them and an address, it thanks the visitor and says a confirmation is on its way; the
// notice is stored with its kind, ground, address and statement. axe-core finds no violation on
// the form, its errors and the thanks; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { shot } from '../../helpers/dashboard.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();

let t: Tenant;
let reviewId: string;

beforeAll(async () => {
  t = await createTenant();
  [reviewId] = await postReviews((await createForm(t, {})).id, `notice-form-${t.org.id}`, [
    [1, 'Liar', 'The owner Jo Bloggs of 3 High Street steals from customers.', 'Max M.'],
  ]);
});

/** No violation and nothing scrolling sideways at both widths, with a screenshot of each. */
async function checkAndShoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    // axe-core needs a script, and the page runs none: it checks a copy of the page's HTML.
    const html = await page.content();
    const check = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    try {
      const copy = await check.newPage();
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

describe('the report form as a notice of illegal content', () => {
  it('asks for the law and the good-faith statement, then takes the notice with an address', async () => {
    const email = `notice-${t.org.slug}@reporters.example.com`;
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/reviews/${reviewId}/report`);
      await page.getByRole('heading', { name: 'Report a review' }).waitFor();
      expect(await page.getByLabel(/It breaks the business's review rules/).isChecked()).toBe(true);
      await checkAndShoot(page, 'notice-form');

      await page.getByLabel(/It is illegal/).check();
      await page.getByLabel('Shares personal data').check();
      await page.getByLabel(/Details/).fill('A private person is named with her street address.');
      await page.getByRole('button', { name: 'Send report' }).click();
      await page.getByText('Name the law the review breaks, and how.').waitFor();
      expect(await page.getByText('Confirm that you report this in good faith.').count()).toBe(1);
      expect(await page.getByLabel(/Which law does it break/).getAttribute('aria-describedby')).toBe(
        'legal_ground-error',
      );
      expect(await page.getByLabel(/It is illegal/).isChecked()).toBe(true);
      expect(await page.getByLabel(/Details/).inputValue()).toBe('A private person is named with her street address.');
      await checkAndShoot(page, 'notice-form-errors');

      await page.getByLabel(/Which law does it break/).fill('GDPR Art. 6 and the Criminal Code on defamation');
      await page.getByLabel(/Your e-mail address/).fill(email);
      await page.getByLabel(/in good faith/).check();
      await page.getByRole('button', { name: 'Send report' }).click();
      await page.getByRole('heading', { name: 'Thank you for your report' }).waitFor();
      expect(
        await page.getByText('you will get a confirmation by e-mail now and the decision later', { exact: false })
          .count(),
      )
        .toBe(1);
      await checkAndShoot(page, 'notice-form-thanks');
    } finally {
      await context.close();
    }
    const rows = await db`select kind, reason, legal_ground, reporter_email, good_faith, status
                            from plaudit.review_reports where review_id = ${reviewId}`;
    expect(rows).toEqual([{
      kind: 'illegal',
      reason: 'personal_data',
      legal_ground: 'GDPR Art. 6 and the Criminal Code on defamation',
      reporter_email: email,
      good_faith: true,
      status: 'open',
    }]);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.email_outbox
                              where to_address = ${email} and template = 'report_received'`;
    expect(n).toBe(1);
  });
});
