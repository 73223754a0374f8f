/// <reference lib="dom" />
// The dashboard's incentive and source, in a real browser: the form editor and the review-request
// form take an incentive (a type, then what exactly; the API's message shows at the field), and a
// review's page says where the review came from and what was offered for it. axe-core finds no
// violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, lookAtBothWidths, openDashboard, PHONE, shot, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { asSession, type Session } from '../../helpers/sessions.ts';

const browser = useBrowser();

const lookAt = (session: Session, path: string, name: string, ready: (page: Page) => Promise<unknown>) =>
  lookAtBothWidths(browser(), session, path, name, ready);

describe('dashboard: incentives and sources', () => {
  it('the form editor takes an incentive, shows the refusal at its field, and saves it', async () => {
    const { tenant, session } = await signedInOwner();
    const app = `/app/o/${tenant.org.id}`;
    const page = await openDashboard(browser(), session, `${app}/forms/new`);
    try {
      await page.getByRole('heading', { level: 1, name: 'New review form' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('After delivery');
      await page.getByLabel('Incentive for a review').selectOption({ label: 'A discount' });
      await page.getByRole('button', { name: 'Create form' }).click();
      const description = page.getByLabel('What the reviewer receives');
      await expect.poll(() => description.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#f-incentive\\.description-error').textContent()).toBe('must not be empty');
      await description.fill('10% off your next order');
      await page.getByRole('button', { name: 'Create form' }).click();
      await page.waitForURL(new RegExp(`${app}/forms/[0-9a-f-]{36}$`));
      await page.getByText('The form is created').waitFor();
      const formId = page.url().split('/').at(-1)!;
      const stored = await asSession(session, 'GET', `/api/v1/organizations/${tenant.org.id}/review-forms/${formId}`);
      expect(stored.body.incentive).toEqual({ type: 'discount', description: '10% off your next order' });
      await lookAt(session, `${app}/forms/${formId}`, 'form-incentive', async (p) => {
        await p.getByLabel('What the reviewer receives').waitFor();
        expect(await p.getByLabel('What the reviewer receives').inputValue()).toBe('10% off your next order');
      });
    } finally {
      await page.context().close();
    }
  });

  it('a review request takes an incentive', async () => {
    const { tenant, session } = await signedInOwner();
    await createForm(tenant);
    const page = await openDashboard(browser(), session, `/app/o/${tenant.org.id}/requests`);
    try {
      await page.getByRole('heading', { level: 1, name: 'Review requests' }).waitFor();
      await page.getByLabel("Customer's e-mail").fill(`gift@${tenant.org.slug}.example.com`);
      await page.getByLabel("Customer's name").fill('Gift Taker');
      await page.getByText('More options: your reference, language, sending later, an incentive').click();
      await page.getByLabel('Incentive for a review').selectOption({ label: 'A gift' });
      await page.getByLabel('What the reviewer receives').fill('A tote bag');
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `request-incentive-${DESKTOP.width}`);
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.getByText(/is queued/).waitFor();
      const listed = await asSession(session, 'GET', `/api/v1/organizations/${tenant.org.id}/review-requests`);
      expect(listed.body.data[0].incentive).toEqual({ type: 'gift', description: 'A tote bag' });
    } finally {
      await page.context().close();
    }
  });

  it("a review's page says its source and its incentive", async () => {
    const { tenant, session } = await signedInOwner();
    const form = await createForm(tenant, { incentive: { type: 'points', description: '100 loyalty points' } });
    const [offered] = await postReviews(form.id, tenant.org.slug, [[5, 'Lovely', 'Great beans.', 'Ingrid H.']]);
    const [imported] = await db`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email,
                                   verification_status, source, source_platform, imported_as_verified)
      values (${tenant.org.id}, ${form.id}, 4, 'From our old shop.', 'Amira K.', 'a@example.com',
              'unverified', 'import', 'okendo', false)
      returning id`;
    const app = `/app/o/${tenant.org.id}`;
    const fact = (page: Page, term: string) => page.locator('dl.facts dt', { hasText: term }).locator('+ dd');
    await lookAt(session, `${app}/reviews/${offered}`, 'review-incentive', async (page) => {
      await fact(page, 'Incentive').waitFor();
      expect(await fact(page, 'Source').textContent()).toBe('Sent through a form or the API');
      expect(await fact(page, 'Incentive').textContent())
        .toBe('Loyalty points: 100 loyalty points (labelled as incentivized in public)');
    });
    const page = await openDashboard(browser(), session, `${app}/reviews/${imported.id}`, PHONE);
    try {
      await fact(page, 'Source').waitFor();
      expect(await fact(page, 'Source').textContent()).toBe('Imported from Okendo');
      expect(await fact(page, 'Incentive').textContent()).toBe('None');
    } finally {
      await page.context().close();
    }
  });
});
