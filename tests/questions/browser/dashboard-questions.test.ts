/// <reference lib="dom" />
// Shoppers' questions in the dashboard, as a shop owner reads them: the published ones with their
// product (or "About your business"), asker, date and text (markup shown as text), a verified
// buyer's answer marked as such (the business's form folded then); one answered as the business
// (the answer shows, and the API has it under the business) and its answer edited in place (the
// business's answer is one), an answer hidden and a question hidden
// with reasons (checked through the API, the question then under Hidden); "Unanswered only" and the
// tab waiting for confirmation. axe-core finds no violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createProduct, type Product } from '../../helpers/products.ts';
import { askedAndConfirmed, mailedToken } from '../../helpers/questions.ts';

const browser = useBrowser();
const SLOW = 90_000;

let owner: SignedInOwner;
let mug: Product;
let mugQuestion: string;
let shippingQuestion: string;
let buyerAnswer: string;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const orgPath = (rest: string) => `/api/v1/organizations/${owner.tenant.org.id}${rest}`;
const email = (who: string) => `${who}-${owner.tenant.org.slug}@example.com`;

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
  const t = owner.tenant;
  mug = await createProduct(api, t, { name: 'Enamel mug' });
  await db`insert into plaudit.orders (org_id, order_id, email, name)
           values (${t.org.id}, 'QD-1', ${email('bea')}, 'Bea Buyer')`;
  await db`insert into plaudit.order_items (org_id, order_id, position, product_external_id)
           values (${t.org.id}, 'QD-1', 0, ${mug.external_id})`;
  mugQuestion = await askedAndConfirmed(t, email('ann'), 'Is it <b>dishwasher</b> safe?', mug.external_id, 'Ann Asker');
  const token = await mailedToken('question_for_buyer', email('bea'), 'answer_url');
  const answered = await api('POST', `/api/v1/public/answers/${token}`, { body: { content: 'Mine survived a year.' } });
  expect(answered.status).toBe(201);
  buyerAnswer = answered.body.id;
  shippingQuestion = await askedAndConfirmed(t, email('bob'), 'Do you ship to Norway?', undefined, 'Bob Brown');
  const pending = await api('POST', `/api/v1/public/questions/${t.org.slug}`, {
    body: { question: 'Can I pay on delivery?', name: 'Cid Unconfirmed', email: email('cid') },
  });
  expect(pending.status).toBe(202);
}, SLOW);

describe('the questions screen', () => {
  it('lists questions with their answers, answers one and hides others with reasons', { timeout: SLOW }, async () => {
    await withPage(appPath('/questions'), async (page) => {
      const mugCard = page.getByRole('article', { name: /Enamel mug/ });
      const shipCard = page.getByRole('article', { name: /About your business/ });
      await mugCard.waitFor();
      await shipCard.waitFor();
      expect(await page.getByRole('link', { name: 'Questions' }).first().getAttribute('aria-current')).toBe('page');
      expect(await mugCard.getByText('Is it <b>dishwasher</b> safe?', { exact: true }).count()).toBe(1);
      expect(await mugCard.getByText(/asked by Ann Asker · /).count()).toBe(1);
      expect(await mugCard.getByText('Mine survived a year.').count()).toBe(1);
      expect(await mugCard.getByText('Verified buyer', { exact: true }).count()).toBe(1);
      expect(await mugCard.getByText('Bea', { exact: true }).count()).toBe(1);
      expect(await shipCard.getByText('No answer yet.').count()).toBe(1);
      // An answered question folds the business's form; an unanswered one shows it.
      expect(await mugCard.getByLabel('Your answer').isVisible()).toBe(false);
      expect(await mugCard.getByText('Add your answer').count()).toBe(1);
      expect(await shipCard.getByLabel('Your answer').isVisible()).toBe(true);
      expect(await page.getByText('Can I pay on delivery?').count()).toBe(0);
      await checkAndShoot(page, 'questions-published');

      // Unanswered only: the mug's question (answered by a buyer) goes.
      await page.getByLabel('Unanswered only').check();
      await mugCard.waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('answered')).toBe('false');
      await shipCard.waitFor();

      await shipCard.getByLabel('Your answer').fill('Yes, within five working days.');
      await shipCard.getByRole('button', { name: 'Publish the answer' }).click();
      await shipCard.waitFor({ state: 'detached' }); // answered now, so no longer unanswered
      await page.getByText('No unanswered questions here.').waitFor();
      await page.getByLabel('Unanswered only').uncheck();
      await shipCard.getByText('Yes, within five working days.').waitFor();
      expect(await shipCard.getByText('Business', { exact: true }).count()).toBe(1);
      // The business's answer is one: the form now edits it in place, never adds a second.
      expect(await shipCard.getByText('Add your answer').count()).toBe(0);
      await shipCard.getByText('Edit your answer').click();
      const mine = shipCard.getByLabel('Your answer');
      expect(await mine.inputValue()).toBe('Yes, within five working days.');
      await mine.fill('Yes, within three working days.');
      await shipCard.getByRole('button', { name: 'Save your answer' }).click();
      await shipCard.getByText('Yes, within three working days.', { exact: true }).waitFor();
      expect(await shipCard.getByText('Yes, within five working days.', { exact: true }).count()).toBe(0);
      expect(await shipCard.getByText('Business', { exact: true }).count()).toBe(1);
      await checkAndShoot(page, 'questions-edit-answer');

      // Hiding the buyer's answer: the reasons are required.
      const buyer = mugCard.getByRole('listitem').filter({ hasText: 'Mine survived a year.' });
      await buyer.getByText('Hide this answer').click();
      await buyer.getByRole('button', { name: 'Hide the answer' }).click();
      const reasons = buyer.getByLabel('Reasons for your decision');
      expect(await reasons.evaluate((el) => (el as HTMLTextAreaElement).validity.valueMissing)).toBe(true);
      await reasons.fill('Off topic.');
      await buyer.getByRole('button', { name: 'Hide the answer' }).click();
      await buyer.getByText('hidden', { exact: true }).waitFor();

      const hideQuestion = shipCard.locator('details', { hasText: 'Hide this question' });
      await hideQuestion.getByText('Hide this question').click();
      await hideQuestion.getByLabel('Reasons for your decision').fill('We do not answer shipping questions here.');
      await hideQuestion.getByRole('button', { name: 'Hide the question' }).click();
      await shipCard.waitFor({ state: 'detached' });

      await page.getByRole('link', { name: 'Hidden', exact: true }).click();
      await shipCard.getByText('Show this question').waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('hidden');
      await checkAndShoot(page, 'questions-hidden');

      await page.getByRole('link', { name: 'Waiting for confirmation' }).click();
      await page.getByText('Can I pay on delivery?').waitFor();
      expect(await page.getByLabel('Your answer').count()).toBe(0);
    });

    const ship = await api('GET', orgPath(`/questions/${shippingQuestion}`), { key: owner.tenant.keys.read });
    expect(ship.body).toMatchObject({
      status: 'hidden',
      answers: [{ content: 'Yes, within three working days.', author: 'business', is_hidden: false }],
    });
    const mugRead = await api('GET', orgPath(`/questions/${mugQuestion}`), { key: owner.tenant.keys.read });
    expect(mugRead.body.status).toBe('published');
    expect(mugRead.body.answered).toBe(false);
    expect(mugRead.body.answers).toMatchObject([{ id: buyerAnswer, author: 'verified_buyer', is_hidden: true }]);
    const trail = await db<{ action: string; reason: string }[]>`
      select action, reason from plaudit.question_moderation_trail
       where org_id = ${owner.tenant.org.id} and action in ('hide', 'unhide') order by created_at`;
    expect(trail).toEqual([
      { action: 'hide', reason: 'Off topic.' },
      { action: 'hide', reason: 'We do not answer shipping questions here.' },
    ]);
  });
});
