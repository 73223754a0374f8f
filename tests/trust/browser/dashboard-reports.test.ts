/// <reference lib="dom" />
// Visitors' reports in the dashboard, as a shop owner reads them: the open ones with the review
// each is about, its reason and details; one resolved with a resolution (checked through the API:
// resolved, by this member, the review untouched), then found under Resolved with what was done; a
// resolution left empty is refused in the field's words. axe-core finds no violation; screenshots
// at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const SLOW = 90_000;

let owner: SignedInOwner;
let reviewIds: string[];
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const orgPath = (rest: string) => `/api/v1/organizations/${owner.tenant.org.id}${rest}`;

const withPage = <T>(path: string, fn: (page: Page) => Promise<T>) =>
  onDashboardPage(browser(), owner.session, path, fn, DESKTOP);

/** No violation and nothing scrolling sideways, at both widths, with a screenshot of each. */
async function checkAndShoot(page: Page, name: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${name} at ${viewport.width}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await shot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);
}

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  const form = await createForm(owner.tenant);
  reviewIds = await postReviews(form.id, `reports-dash-${owner.tenant.org.id}`, [
    [1, 'Never again', 'Call the manager on 555 0100, he is called John Smith.', 'Ann Angry'],
    [5, 'Best mugs', 'Buy the best mugs at example.net, use code SAVE50!', 'Bob Bot'],
  ]);
  const reports: [string, unknown][] = [
    [reviewIds[0], { reason: 'personal_data', details: 'It names a member of staff and his phone number.' }],
    [reviewIds[1], { reason: 'spam' }],
  ];
  for (const [id, body] of reports) {
    const res = await api('POST', `/api/v1/public/reviews/${owner.tenant.org.slug}/${id}/reports`, { body });
    expect(res.status).toBe(202);
  }
}, SLOW);

describe('the reports screen', () => {
  it('lists the open reports with their reviews, and resolves one with a resolution', { timeout: SLOW }, async () => {
    await withPage(appPath('/reports'), async (page) => {
      await page.getByRole('heading', { name: /Personal data/ }).waitFor();
      await page.getByRole('heading', { name: /Spam or advertising/ }).waitFor();
      expect(await page.getByText('It names a member of staff and his phone number.').count()).toBe(1);
      expect(await page.getByText('Call the manager on 555 0100', { exact: false }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Reports' }).first().getAttribute('aria-current')).toBe('page');
      await checkAndShoot(page, 'reports-open');

      const card = page.getByRole('article', { name: /Spam or advertising/ });
      // An empty resolution is refused by the browser's own check, before any request.
      await card.getByRole('button', { name: 'Resolve' }).click();
      expect(await card.getByLabel('Resolution').evaluate((el) => (el as HTMLTextAreaElement).validity.valueMissing))
        .toBe(true);
      await card.getByLabel('Resolution').fill('Advertising: hidden on the review page.');
      await card.getByRole('button', { name: 'Resolve' }).click();
      await page.getByRole('status').filter({ hasText: 'The report is resolved' }).waitFor();
      await page.getByRole('heading', { name: /Spam or advertising/ }).waitFor({ state: 'detached' });

      await page.getByRole('link', { name: 'Resolved' }).click();
      await page.getByText('Advertising: hidden on the review page.', { exact: false }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('resolved');
      expect(await page.getByText('by Olga Owner', { exact: false }).count()).toBe(1);
      await checkAndShoot(page, 'reports-resolved');
    });
    const resolved = await api('GET', orgPath('/reports?status=resolved'), { key: owner.tenant.keys.read });
    expect(resolved.body.data).toHaveLength(1);
    expect(resolved.body.data[0]).toMatchObject({
      review_id: reviewIds[1],
      status: 'resolved',
      resolution: 'Advertising: hidden on the review page.',
      resolved_by: expect.stringMatching(/^member:/),
    });
    const [review] = await db`select is_hidden from plaudit.reviews where id = ${reviewIds[1]}`;
    expect(review.is_hidden).toBe(false);
  });

  it('says when nothing is open', { timeout: SLOW }, async () => {
    await db`update plaudit.review_reports set status = 'resolved', resolution = 'Done', resolved_at = now(),
               resolved_by = 'database:test' where org_id = ${owner.tenant.org.id}`;
    await withPage(appPath('/reports'), async (page) => {
      await page.getByText('No open reports: nothing waits for you.').waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
