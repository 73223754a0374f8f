/// <reference lib="dom" />
// The dashboard's privacy requests in a real browser, as a shop's admin answers a reviewer: the
// report of what is held about an address, downloaded as JSON; forgetting an address after asking
// once more, with what was removed; the effect checked through the API. axe-core finds no
// violation; screenshots at 375 and 1,280 px.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let reviewId: string;
let address: string;
const orgPath = () => `/api/v1/organizations/${owner.tenant.org.id}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;

const withPage = <T>(fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, appPath('/privacy'), async (page) => {
    page.setDefaultTimeout(8000);
    await page.getByRole('heading', { level: 1, name: 'Privacy requests' }).waitFor();
    return await fn(page);
  }, viewport);

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  address = `dana.${owner.tenant.org.slug}@example.com`;
  const form = await api('POST', `${orgPath()}/review-forms`, { key: owner.tenant.keys.write, body: { name: 'Shop' } });
  const review = {
    form_id: form.body.id,
    rating: 5,
    title: 'Lovely',
    content: 'Lovely shop',
    reviewer_name: 'Dana Berg',
    reviewer_email: address,
  };
  const [row] = await db`
    select id, error_message from plaudit.submit_review(
      jsonb_populate_record(null::plaudit.review_submission, ${db.json(review)}),
      ${`fixture:privacy-browser:${owner.tenant.org.id}`}, 1000, 'http://127.0.0.1')`;
  expect(row.error_message).toBeNull();
  reviewId = row.id;
});

describe('privacy requests', () => {
  it('downloads the report of an address, then forgets it after asking once more', async () => {
    await withPage(async (page) => {
      const access = page.getByRole('region', { name: 'What you hold about an address' });
      await access.getByLabel('E-mail address').fill(address);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        access.getByRole('button', { name: 'Download the report' }).click(),
      ]);
      const report = JSON.parse(readFileSync(await download.path(), 'utf8'));
      expect(report.email).toBe(address);
      expect(report.reviews.map((r: { id: string }) => r.id)).toEqual([reviewId]);
      await access.getByText('Downloaded: 1 review, 0 review requests, 0 orders.').waitFor();

      const erase = page.getByRole('region', { name: 'Forget an address' });
      await erase.getByLabel('E-mail address').fill(address);
      await erase.getByLabel('Also remove the title and text of their reviews').check();
      await erase.getByRole('button', { name: 'Forget this address…' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm the erasure' });
      await confirm.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'privacy-confirm-1280');
      // Nothing happens before the second yes.
      const before = await api('GET', `${orgPath()}/reviews/${reviewId}`, { key: owner.tenant.keys.read });
      expect(before.body.reviewer_email).toBe(address);

      await confirm.getByRole('button', { name: 'Yes, forget it' }).click();
      await erase.getByText(
        `${address} is forgotten: 1 review anonymized, 0 review requests and 0 photos and videos removed.`,
      ).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'privacy-done-1280');
    });
    const after = await api('GET', `${orgPath()}/reviews/${reviewId}`, { key: owner.tenant.keys.read });
    expect(after.body).toMatchObject({
      reviewer_email: null,
      reviewer_name: 'Anonymous',
      content: "[removed at the reviewer's request]",
    });
  });

  it('shows the API’s message under the field, and reads well on a phone', async () => {
    await withPage(async (page) => {
      const erase = page.getByRole('region', { name: 'Forget an address' });
      // The browser's own check is off, as if a script had sent it: the API answers.
      await page.evaluate(() => document.querySelectorAll('form').forEach((f) => f.setAttribute('novalidate', '')));
      await erase.getByLabel('E-mail address').fill('not-an-address');
      await erase.getByRole('button', { name: 'Forget this address…' }).click();
      await page.getByRole('group', { name: 'Confirm the erasure' }).getByRole('button', { name: 'Yes, forget it' })
        .click();
      await erase.getByText(/email/i).first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'privacy-375');
    }, PHONE);
  });
});
