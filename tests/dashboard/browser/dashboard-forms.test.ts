/// <reference lib="dom" />
// The dashboard's review forms and widget settings in a real browser, as a shop owner uses them:
// create a form with a required choice and manual approval, find it in the list, copy and open its
// link, send a review through it, and find that review awaiting approval in the inbox; edit the
// questions and see the API's message at a wrong key; deactivate and delete with a confirmation;
// switch the widget to a grid and watch the live preview change, save, and switch the profile off.
// axe-core finds no violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../../helpers/browser.ts';
import { lookAtBothWidths, openDashboard, signedInOwner } from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { asSession, type Session } from '../../helpers/sessions.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');

const lookAt = (session: Session, path: string, name: string, ready: (page: Page) => Promise<unknown>) =>
  lookAtBothWidths(browser(), session, path, name, ready);

/** The widget's root element class in the preview's shadow root, once it has one. */
function previewClass(page: Page, contains: string) {
  return page.waitForFunction(
    (want) => {
      const w = document.querySelector('[data-plaudit-widget]')?.shadowRoot?.querySelector('.w');
      return w && w.classList.contains(want) ? w.className : null;
    },
    contains,
  );
}

describe('dashboard: review forms', () => {
  it('creates a form, shares its link, takes a review through it, and finds the review awaiting approval', async () => {
    const { tenant, session } = await signedInOwner();
    const orgApi = `/api/v1/organizations/${tenant.org.id}`;
    const app = `/app/o/${tenant.org.id}`;
    const page = await openDashboard(browser(), session, `${app}/forms`);
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
      await page.getByRole('heading', { level: 1, name: 'Review forms' }).waitFor();
      await page.getByText('No forms yet').waitFor();

      await page.getByRole('link', { name: 'New form' }).click();
      await page.getByRole('heading', { level: 1, name: 'New review form' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('After delivery');
      await page.getByRole('radio', { name: /You approve each review/ }).check();
      await page.getByRole('button', { name: 'Add a question' }).click();
      const q1 = page.getByRole('group', { name: /^Question 1/ });
      // The new question's wording has the focus; its key follows the wording.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('f-custom_fields.0.label');
      await q1.getByLabel('Question', { exact: true }).fill('Which product did you buy?');
      expect(await q1.getByLabel('Key').inputValue()).toBe('which_product_did_you_buy');
      await q1.getByLabel('Key').fill('product');
      await q1.getByLabel('Question', { exact: true }).fill('Which product did you order?');
      // Edited once, the key stays.
      expect(await q1.getByLabel('Key').inputValue()).toBe('product');
      await q1.getByLabel('Answer type').selectOption({ label: 'Choice from a list' });
      await q1.getByLabel('Choices').fill('Mug\n\nPlate  \n');
      await q1.getByRole('checkbox', { name: /Required/ }).check();
      await page.getByRole('button', { name: 'Create form' }).click();

      await page.waitForURL(new RegExp(`${app}/forms/[0-9a-f-]{36}$`));
      await page.getByText('The form is created').waitFor();
      await page.getByRole('heading', { level: 1, name: 'After delivery' }).waitFor();
      const formId = page.url().split('/').at(-1)!;
      const stored = await asSession(session, 'GET', `${orgApi}/review-forms/${formId}`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({
        name: 'After delivery',
        verification_mode: 'manual',
        is_active: true,
        custom_fields: [{
          key: 'product',
          label: 'Which product did you order?',
          type: 'select',
          required: true,
          options: ['Mug', 'Plate'],
        }],
      });
      expect(await page.getByLabel('Submission link').inputValue()).toBe(stored.body.submission_url);

      // The list: the form, its mode and questions, its link to copy and open.
      await page.getByRole('link', { name: 'Review forms' }).click();
      const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'After delivery' }) });
      await row.waitFor();
      expect(await row.textContent()).toContain('Verification: You approve each review');
      expect(await row.textContent()).toContain('1 own question');
      expect(await row.textContent()).toContain('Active');
      await row.getByRole('button', { name: /Copy link/ }).click();
      await row.getByRole('button', { name: /Copied/ }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stored.body.submission_url);

      const [hosted] = await Promise.all([
        page.context().waitForEvent('page'),
        row.getByRole('link', { name: /^Open/ }).click(),
      ]);
      try {
        await hosted.waitForLoadState();
        expect(hosted.url()).toBe(stored.body.submission_url);
        await hosted.getByLabel('4 stars').check();
        await hosted.getByLabel('Your review').fill('The plate arrived well packed and it is lovely.');
        await hosted.getByLabel('Which product did you order?').selectOption('Plate');
        await hosted.getByLabel('Your name').fill('Petra');
        await hosted.getByLabel('Your e-mail address').fill(`petra-${tenant.org.slug}@example.com`);
        await hosted.getByRole('button', { name: 'Send my review' }).click();
        await hosted.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
      } finally {
        await hosted.close();
      }

      // The review waits for approval in the inbox.
      await page.goto(`${base()}${app}/reviews?verification_status=pending`);
      await page.getByRole('link', { name: /The plate arrived well packed/ }).waitFor();
      const reviews = await asSession(session, 'GET', `${orgApi}/reviews?verification_status=pending`);
      expect(reviews.body.data).toHaveLength(1);
      expect(reviews.body.data[0]).toMatchObject({
        form_id: formId,
        rating: 4,
        reviewer_name: 'Petra',
        verification_status: 'pending',
        custom_fields: { product: 'Plate' },
      });
    } finally {
      await page.context().close();
    }

    await lookAt(
      session,
      `${app}/forms`,
      'forms-list',
      (p) => p.getByRole('link', { name: 'After delivery', exact: true }).waitFor(),
    );
  });

  it('edits the questions, shows the API’s message at a wrong key, deactivates and deletes with a confirmation', async () => {
    const { tenant, session } = await signedInOwner();
    const orgApi = `/api/v1/organizations/${tenant.org.id}`;
    const app = `/app/o/${tenant.org.id}`;
    const form = await createForm(tenant, {
      name: 'Shop visits',
      verification_mode: 'email',
      custom_fields: [
        { key: 'product', label: 'Which product?', type: 'select', required: true, options: ['Chair', 'Desk'] },
        { key: 'gift', label: 'Was it a gift?', type: 'boolean' },
      ],
    });
    const page = await openDashboard(browser(), session, `${app}/forms/${form.id}`);
    try {
      await page.getByRole('heading', { level: 1, name: 'Shop visits' }).waitFor();
      expect(await page.getByRole('radio', { name: /Confirm by e-mail/ }).isChecked()).toBe(true);
      // Add a question, move it first, remove the product question.
      await page.getByRole('button', { name: 'Add a question' }).click();
      const q3 = page.getByRole('group', { name: /^Question 3/ });
      await q3.getByLabel('Question', { exact: true }).fill('How did you hear about us?');
      expect(await q3.getByLabel('Key').inputValue()).toBe('how_did_you_hear_about_us');
      await q3.getByLabel('Answer type').selectOption('textarea');
      await page.getByRole('button', { name: 'Move up question 3' }).click();
      await page.getByRole('button', { name: 'Remove question 1' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Your changes are saved').waitFor();
      const saved = await asSession(session, 'GET', `${orgApi}/review-forms/${form.id}`);
      expect(saved.body.custom_fields).toEqual([
        { key: 'how_did_you_hear_about_us', label: 'How did you hear about us?', type: 'textarea', required: false },
        { key: 'gift', label: 'Was it a gift?', type: 'boolean', required: false },
      ]);

      // A key the API refuses: its message at the key, which gets the focus; nothing changes.
      const q2 = page.getByRole('group', { name: /^Question 2/ });
      await q2.getByLabel('Key').fill('2nd-gift');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const key = q2.getByLabel('Key');
      await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
      const refused = await asSession(session, 'PATCH', `${orgApi}/review-forms/${form.id}`, {
        body: { custom_fields: [{ key: '2nd-gift', label: 'x', type: 'boolean' }] },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].field).toBe('custom_fields.0.key');
      const described = (await key.getAttribute('aria-describedby'))!.split(' ');
      const texts = await Promise.all(described.map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(texts).toContain(refused.body.errors[0].message);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-custom_fields.1.key');
      await page.getByText('The form is not saved').waitFor();
      expect((await asSession(session, 'GET', `${orgApi}/review-forms/${form.id}`)).body.custom_fields[1].key)
        .toBe('gift');
      await key.fill('gift');

      await lookAt(
        session,
        `${app}/forms/${form.id}`,
        'form-editor',
        (p) => p.getByRole('heading', { level: 1, name: 'Shop visits' }).waitFor(),
      );

      // Deactivate: asked first, then done.
      await page.getByRole('button', { name: 'Deactivate form' }).click();
      await page.getByText('Deactivate this form?').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect((await asSession(session, 'GET', `${orgApi}/review-forms/${form.id}`)).body.is_active).toBe(true);
      await page.getByRole('button', { name: 'Deactivate form' }).click();
      await page.getByRole('button', { name: 'Yes, deactivate' }).click();
      await page.getByRole('button', { name: 'Activate form' }).waitFor();
      expect((await asSession(session, 'GET', `${orgApi}/review-forms/${form.id}`)).body.is_active).toBe(false);
      // Its link says that it is closed.
      expect((await api('GET', `/forms/${form.id}`)).status).toBeGreaterThanOrEqual(400);

      // Delete: asked first; the list says it is gone.
      await page.getByRole('button', { name: 'Delete form' }).click();
      await page.getByRole('button', { name: 'Yes, delete the form' }).click();
      await page.waitForURL(`${base()}${app}/forms`);
      await page.getByText('“Shop visits” is deleted').waitFor();
      expect((await asSession(session, 'GET', `${orgApi}/review-forms/${form.id}`)).status).toBe(404);
    } finally {
      await page.context().close();
    }
  });
});

describe('dashboard: widget and public page', () => {
  it('previews the real widget as settings change, saves them, and switches the profile off', async () => {
    const { tenant, session } = await signedInOwner();
    const app = `/app/o/${tenant.org.id}`;
    const form = await createForm(tenant);
    await postReviews(form.id, `${tenant.org.slug}-w`, [
      [5, 'Lovely shop', 'Friendly staff and quick delivery.', 'Ada L.'],
      [4, 'Good', 'The chair is comfortable.', 'Bo K.'],
      [2, 'Late', 'It came a week late.', 'Cy D.'],
    ]);
    const embedOf = async () => (await api('GET', `/api/v1/public/embed/${tenant.org.slug}`)).body;

    const page = await openDashboard(browser(), session, `${app}/widget`);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A refused request is logged by the browser; the page's own errors are what count.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    try {
      await page.getByRole('heading', { level: 1, name: 'Widget and public page' }).waitFor();
      // The real widget, loaded under the dashboard's CSP, shows the saved list.
      expect(await (await previewClass(page, 'list')).jsonValue()).toBe('w list light');
      expect(await page.getByLabel('Widget snippet').inputValue()).toContain(`data-slug="${tenant.org.slug}"`);
      expect(await page.getByLabel('Public page address').inputValue()).toBe(`${base()}/p/${tenant.org.slug}`);

      // A change shows at once, before saving.
      await page.getByRole('radio', { name: /Grid/ }).check();
      expect(await (await previewClass(page, 'grid')).jsonValue()).toBe('w grid light');
      await page.getByText('Unsaved changes', { exact: true }).waitFor();
      await page.getByLabel('Lowest rating shown').selectOption('4');
      await page.waitForFunction(() =>
        document.querySelector('[data-plaudit-widget]')?.shadowRoot?.querySelectorAll('li.r').length === 2
      );
      expect((await embedOf()).layout).toBe('list');

      // Saved: the public embed answer has it, and the preview draws from it.
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved. Visitors').waitFor();
      const embed = await embedOf();
      expect(embed).toMatchObject({ layout: 'grid', min_rating: 4, enabled: true });
      expect(embed.reviews).toHaveLength(2);
      await previewClass(page, 'grid');
      await page.getByText('Unsaved changes', { exact: true }).waitFor({ state: 'detached' });

      // A wrong website: the API's message at the field.
      await page.getByLabel('Website').fill('not a website');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const website = page.getByLabel('Website');
      await expect.poll(() => website.getAttribute('aria-invalid')).toBe('true');
      await page.getByText('The settings are not saved').waitFor();
      await page.getByRole('button', { name: 'Discard changes' }).click();
      expect(await website.inputValue()).toBe('');

      await lookAt(session, `${app}/widget`, 'widget', (p) => previewClass(p, 'grid'));

      // The Google feed: switched on, its address shown to copy once saved, and the address answers.
      await page.getByRole('checkbox', { name: /Publish a Google product reviews feed/ }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      const feedUrl = await page.getByLabel('Google feed address').inputValue();
      expect(feedUrl).toMatch(new RegExp(`/api/v1/public/feeds/${tenant.org.slug}/google-product-reviews\\.xml$`));
      expect((await api('GET', new URL(feedUrl).pathname)).status).toBe(200);

      // Off: the preview says so at once, and after saving the public answers too.
      await page.getByRole('checkbox', { name: /Public profile on/ }).uncheck();
      await page.getByText('Your public profile is off once you save').waitFor();
      expect(await page.locator('[data-plaudit-widget]').count()).toBe(0);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved. Your public profile is off').waitFor();
      await page.getByText('Your public profile is off.', { exact: false }).first().waitFor();
      expect((await embedOf()).enabled).toBe(false);
      expect((await api('GET', `/p/${tenant.org.slug}`)).status).toBe(404);
      const settings = await asSession(session, 'GET', `/api/v1/organizations/${tenant.org.id}/public-profile`);
      expect(settings.body).toMatchObject({ enabled: false, embed: { layout: 'grid', min_rating: 4 } });
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
