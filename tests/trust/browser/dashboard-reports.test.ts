/// <reference lib="dom" />
// Visitors' reports in the dashboard, as a shop owner reads them: the open ones with the review
// each is about, its kind (a notice of illegal content names its law) and age, reason and details;
// one decided in one step, kept with the reasons (checked through the API: resolved, kept, by this
// member, the review untouched), another hidden (the review hidden), then found under Resolved
// with the decision; reasons left empty are refused by the field. axe-core finds no violation;
// screenshots at 375 and 1,280 px.
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
    [reviewIds[0], {
      reason: 'personal_data',
      details: 'It names a member of staff and his phone number.',
      kind: 'illegal',
      legal_ground: 'GDPR Art. 6: a person named without consent',
      good_faith: true,
    }],
    [reviewIds[1], { reason: 'spam' }],
  ];

  for (const [id, body] of reports) {
    const res = await api('POST', `/api/v1/public/reviews/${owner.tenant.org.slug}/${id}/reports`, { body });
    expect(res.status).toBe(202);
  }
}, SLOW);

describe('the reports screen', () => {
  it('lists the open reports with their kind and age, and decides each in one step', { timeout: SLOW }, async () => {
    await withPage(appPath('/reports'), async (page) => {
      await page.getByRole('heading', { name: /Personal data/ }).waitFor();
      await page.getByRole('heading', { name: /Spam or advertising/ }).waitFor();
      expect(await page.getByText('It names a member of staff and his phone number.').count()).toBe(1);
      expect(await page.getByText('Call the manager on 555 0100', { exact: false }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Reports' }).first().getAttribute('aria-current')).toBe('page');
      const notice = page.getByRole('article', { name: /Personal data/ });
      expect(await notice.getByText('Illegal content (DSA notice)').count()).toBe(1);
      expect(await notice.getByText('GDPR Art. 6: a person named without consent', { exact: false }).count()).toBe(1);
      expect(await notice.getByText(/waiting \d+ minutes?/).count()).toBe(1);
      const spamCard = page.getByRole('article', { name: /Spam or advertising/ });
      expect(await spamCard.getByText('Against your policy').count()).toBe(1);
      await checkAndShoot(page, 'reports-open');

      // Reasons left empty are refused by the browser's own check, before any request.
      await spamCard.getByRole('button', { name: 'Keep the review' }).click();
      const reasons = spamCard.getByLabel('Reasons for your decision');
      expect(await reasons.evaluate((el) => (el as HTMLTextAreaElement).validity.valueMissing)).toBe(true);
      await reasons.fill('An enthusiastic customer, not an advertisement.');
      await spamCard.getByRole('button', { name: 'Keep the review' }).click();
      await page.getByRole('status').filter({ hasText: 'The report is resolved' }).waitFor();
      await page.getByRole('heading', { name: /Spam or advertising/ }).waitFor({ state: 'detached' });

      await notice.getByLabel('Reasons for your decision').fill('It names a member of staff and his phone number.');
      await notice.getByRole('button', { name: 'Hide the review' }).click();
      await page.getByRole('heading', { name: /Personal data/ }).waitFor({ state: 'detached' });

      await page.getByRole('link', { name: 'Resolved' }).click();
      await page.getByText('An enthusiastic customer, not an advertisement.', { exact: false }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('resolved');
      expect(await page.getByText('by Olga Owner', { exact: false }).count()).toBe(2);
      expect(await page.getByText('Hidden', { exact: true }).count()).toBe(1);
      expect(await page.getByText('Kept', { exact: true }).count()).toBe(1);
      await checkAndShoot(page, 'reports-resolved');
    });
    const resolved = await api('GET', orgPath('/reports?status=resolved'), { key: owner.tenant.keys.read });
    expect(resolved.body.data).toHaveLength(2);
    expect(resolved.body.data.find((r: any) => r.review_id === reviewIds[1])).toMatchObject({
      status: 'resolved',
      decision: 'kept',
      resolution: 'An enthusiastic customer, not an advertisement.',
      resolved_by: expect.stringMatching(/^member:/),
    });
    const reviews = await db`select id, is_hidden from plaudit.reviews where id in ${db(reviewIds)} order by id`;
    expect(Object.fromEntries(reviews.map((r) => [r.id, r.is_hidden]))).toEqual({
      [reviewIds[0]]: true,
      [reviewIds[1]]: false,
    });
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
