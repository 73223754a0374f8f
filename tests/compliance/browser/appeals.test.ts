/// <reference lib="dom" />
// An appeal from start to end in a real browser: the statement of reasons' link opens the appeal
// form (JavaScript off), which shows the ground and facts, asks again for an empty appeal with the
// error tied to its field, and thanks the reviewer; in the dashboard, the member sees the appeal
// with its review and statement and reverses it in one step (the review shown again, checked in
// the database), then finds it under Reversed. A link past its six months says when the time to
// appeal ended. axe-core finds no violation; screenshots at 375 or 390 and 1,280 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, linkIn, local, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();
const SLOW = 90_000;

let owner: SignedInOwner;
let reviewId: string;
let worker: TestWorker;
let appealLink: string;
let lateReviewId: string;
let lateLink: string;

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  worker = await mailWorker([owner.tenant.org.id]);
  [reviewId, lateReviewId] = await postReviews(
    (await createForm(owner.tenant)).id,
    `appeal-browser-${owner.tenant.org.id}`,
    [
      [2, 'Slow and rude', 'The courier shouted at me and the parcel was late.', 'Ann Appeal'],
      [1, 'Never again', 'The manager was rude to me on the phone.', 'Len Late'],
    ],
  );
  for (const id of [reviewId, lateReviewId]) {
    const hidden = await api('PATCH', `/api/v1/organizations/${owner.tenant.org.id}/reviews/${id}/moderate`, {
      key: owner.tenant.keys.write,
      body: { action: 'hide', reason: 'Accuses a member of staff by name' },
    });
    expect(hidden.status).toBe(200);
  }
  const link = async (i: number) => {
    const [mail] = await waitForMail((to) => to === `r${i}-appeal-browser-${owner.tenant.org.id}@example.com`, 1);
    return local(linkIn(mail.text, /\/appeals\//));
  };
  appealLink = await link(0);
  lateLink = await link(1);
}, SLOW);
afterAll(async () => {
  await worker?.stop();
});

/** No violation and nothing scrolling sideways at both widths, with a screenshot of each; `copy` for pages without scripts. */
async function checkAndShoot(page: Page, name: string, copy = false) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    if (copy) {
      // axe-core needs a script, and the page runs none: it checks a copy of the page's HTML.
      const html = await page.content();
      const check = await browser().newContext({ viewport, bypassCSP: true });
      try {
        const twin = await check.newPage();
        await twin.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: html }));
        await twin.goto(page.url());
        expect(await axeViolations(twin), `${name} at ${viewport.width}`).toEqual([]);
      } finally {
        await check.close();
      }
    } else {
      expect(await axeViolations(page), `${name} at ${viewport.width}`).toEqual([]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await shot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);
}

describe('an appeal', () => {
  it('is made through the form of the statement’s link', { timeout: SLOW }, async () => {
    const context = await browser().newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(appealLink);
      await page.getByRole('heading', { name: 'Appeal the decision to hide your review' }).waitFor();
      expect(await page.getByText('The facts given: Accuses a member of staff by name').count()).toBe(1);
      expect(await page.getByText(/^You may appeal until \w+ \d{1,2}, \d{4}\.$/).count()).toBe(1);
      await checkAndShoot(page, 'appeal-form', true);
      await page.getByRole('button', { name: 'Send my appeal' }).click();
      await page.getByText('Write why the decision should be changed.').waitFor();
      expect(await page.getByLabel(/Why should the decision be changed/).getAttribute('aria-describedby')).toBe(
        'f-text-error',
      );
      await checkAndShoot(page, 'appeal-form-error', true);
      await page.getByLabel(/Why should the decision be changed/).fill('I named nobody; the parcel really was late.');
      await page.getByRole('button', { name: 'Send my appeal' }).click();
      await page.getByRole('heading', { name: 'Your appeal was sent' }).waitFor();
      await checkAndShoot(page, 'appeal-sent', true);
    } finally {
      await context.close();
    }
    expect(inject('apiUrl')).toBeTruthy();
  });

  it('is closed six months after the statement, saying when', { timeout: SLOW }, async () => {
    await db`update plaudit.review_statements set created_at = '2026-01-10T12:00:00Z' where review_id = ${lateReviewId}`;
    const context = await browser().newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      const res = await page.goto(lateLink);
      expect(res?.status()).toBe(410);
      await page.getByRole('heading', { name: 'The time to appeal has ended' }).waitFor();
      expect(
        await page.getByText(
          'The time to appeal this decision ended on July 10, 2026. You may still turn to an out-of-court dispute settlement body or a court.',
        ).count(),
      ).toBe(1);
      await checkAndShoot(page, 'appeal-closed', true);
    } finally {
      await context.close();
    }
  });

  it('is reversed by the member in the dashboard in one step', { timeout: SLOW }, async () => {
    await onDashboardPage(browser(), owner.session, `/app/o/${owner.tenant.org.id}/appeals`, async (page) => {
      const card = page.getByRole('article', { name: /Appeal by Ann Appeal/ });
      await card.waitFor();
      expect(await card.getByText('I named nobody; the parcel really was late.', { exact: false }).count()).toBe(1);
      expect(await card.getByText('Accuses a member of staff by name', { exact: false }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Appeals' }).first().getAttribute('aria-current')).toBe('page');
      await checkAndShoot(page, 'appeals-open');
      await card.getByLabel('Reasons for your decision').fill('On a second reading nobody is named.');
      await card.getByRole('button', { name: 'Reverse: show the review again' }).click();
      await page.getByRole('status').filter({ hasText: 'The appeal is decided' }).waitFor();
      await page.getByRole('link', { name: 'Reversed' }).click();
      await page.getByText('On a second reading nobody is named.', { exact: false }).waitFor();
      await checkAndShoot(page, 'appeals-reversed');
    }, DESKTOP);
    const [review] = await db`select is_hidden from plaudit.reviews where id = ${reviewId}`;
    expect(review.is_hidden).toBe(false);
    const [appeal] = await db`select status, decided_by from plaudit.review_appeals where review_id = ${reviewId}`;
    expect(appeal.status).toBe('reversed');
    expect(appeal.decided_by).toMatch(/^member:/);
  });
});
