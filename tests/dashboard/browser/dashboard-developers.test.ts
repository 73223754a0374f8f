/// <reference lib="dom" />
// The dashboard's developer pages in a real browser, as a shop owner uses them: an API key made,
// its secret read once and used for a real request, gone when the page is left, then rotated and
// revoked (the request answers 401); a webhook endpoint pointing at a real receiver, a test event
// sent from its page and seen in the delivery log, a delivery opened and redelivered by the
// worker; an export made, prepared by the worker and downloaded; a member, for whom keys are not
// in the sidebar but webhooks are (they need the write scope, as in the API). axe-core finds no violation; screenshots at 375 and 1,280 px.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyHexSignature } from '../../../functions/_shared/core/webhooks/signing.ts';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import {
  DESKTOP,
  onDashboardPage,
  openDashboard,
  PHONE,
  shot,
  type SignedInOwner,
  signedInOwner,
  type Viewport,
} from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { createForm, mailWorker } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { addMember, asSession, personEmail, signIn } from '../../helpers/sessions.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let receiver: Receiver;
/** Delivers webhooks, prepares exports and sends sign-in mail for the test's organization. */
let worker: TestWorker;
const orgPath = (rest = '') => `/api/v1/organizations/${owner.tenant.org.id}${rest}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;

const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport: Viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, fn, viewport);

/** GET /api/v1/me with a key, as the shop's own system would call it. */
const me = (key: string) => api('GET', '/api/v1/me', { key });

/** The page fits its width: nothing scrolls sideways. */
async function fits(page: Page, viewport: Viewport) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
}

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  receiver = await startReceiver(() => ({ status: 200, body: 'thanks from the shop' }));
  worker = await mailWorker([owner.tenant.org.id]);
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe('API keys', () => {
  it('shows a new key once; it works until it is revoked', async () => {
    let key = '';
    await withPage(appPath('/developers/keys'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      // The tenant's own three keys are listed by name and prefix.
      await page.getByText('admin key', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Create a key' }).click();
      await page.getByLabel('Name').fill('Shop backend');
      await page.getByRole('radio', { name: /^Write/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();

      const field = page.getByLabel('API key (Write)');
      await field.waitFor();
      key = await field.inputValue();
      expect(key).toMatch(/^rk_[0-9A-Za-z]{38}$/);
      await page.getByText('It is shown only this once').waitFor();
      expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(1);

      // The key is real: the shop's backend can call the API with it.
      const res = await me(key);
      expect(res.status).toBe(200);
      expect(res.body.api_key).toMatchObject({ name: 'Shop backend', scope: 'write', prefix: key.slice(0, 11) });

      expect(await axeViolations(page)).toEqual([]);
      await fits(page, DESKTOP);
      await shot(page, 'api-keys-1280');
      await page.setViewportSize(PHONE);
      await fits(page, PHONE);
      await shot(page, 'api-keys-375');
      await page.setViewportSize(DESKTOP);

      await page.getByRole('button', { name: 'Done, I have stored it' }).click();
      await page.getByText('“Shop backend” is ready to use.').waitFor();
      expect(await page.content()).not.toContain(key);

      // Away and back: the list shows the key by its prefix only.
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.goBack();
      const row = page.getByRole('listitem').filter({ hasText: 'Shop backend' });
      await row.waitFor();
      expect(await row.textContent()).toContain(`${key.slice(0, 11)}…`);
      expect(await page.content()).not.toContain(key);
      expect(await page.getByLabel(/^API key/).count()).toBe(0);

      // Revoking asks first, inline; then the key answers 401.
      await row.getByRole('button', { name: 'Revoke “Shop backend”' }).click();
      await row.getByText('Revoke “Shop backend”?').waitFor();
      expect((await me(key)).status).toBe(200);
      await row.getByRole('button', { name: 'Yes, revoke key' }).click();
      await page.getByText(/“Shop backend” \(rk_\w+…\) is revoked/).waitFor();
      await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'Shop backend' }).count()).toBe(0);
    });
    expect((await me(key)).status).toBe(401);
    const keys = await api('GET', orgPath('/api-keys?limit=100'), { key: owner.tenant.keys.admin });
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('Shop backend');
  });

  it('rotates a key with a grace period: both work until it ends, the new one is shown once', async () => {
    await withPage(appPath('/developers/keys'), async (page) => {
      await page.getByRole('button', { name: 'Create a key' }).click();
      await page.getByLabel('Name').fill('Nightly report');
      await page.getByRole('button', { name: 'Create key' }).click();
      const oldKey = await page.getByLabel('API key (Read)').inputValue();
      await page.getByRole('button', { name: 'Done, I have stored it' }).click();

      const row = page.getByRole('listitem').filter({ hasText: 'Nightly report' });
      await row.getByRole('button', { name: 'Rotate “Nightly report”' }).click();
      await row.getByRole('radio', { name: 'In 1 hour' }).check();
      await row.getByRole('button', { name: 'Rotate key' }).click();
      const newKey = await page.getByLabel('API key (Read)').inputValue();
      expect(newKey).toMatch(/^rk_/);
      expect(newKey).not.toBe(oldKey);
      await page.getByText(/keeps working until/).waitFor();
      expect((await me(oldKey)).status).toBe(200);
      expect((await me(newKey)).status).toBe(200);

      await page.getByRole('button', { name: 'Done, I have stored it' }).click();
      // The old key is listed with the end of its grace period and cannot be rotated twice.
      const rotated = page.getByRole('listitem').filter({ hasText: 'Rotated' });
      await rotated.waitFor();
      expect(await rotated.textContent()).toContain('Stops working');
      expect(await rotated.getByRole('button', { name: /^Rotate/ }).count()).toBe(0);
      expect(await page.content()).not.toContain(newKey);
    });
    const keys = await api('GET', orgPath('/api-keys?limit=100'), { key: owner.tenant.keys.admin });
    const reports = keys.body.data.filter((k: { name: string }) => k.name === 'Nightly report');
    expect(reports).toHaveLength(2);
    expect(reports.filter((k: { expires_at: string | null }) => k.expires_at !== null)).toHaveLength(1);
  });
});

describe('webhooks', () => {
  it('adds an endpoint, sends a test event, shows the delivery log and redelivers', async () => {
    const url = `${receiver.url}/plaudit`;
    await withPage(appPath('/developers/webhooks'), async (page) => {
      await page.getByText('No endpoint yet.').waitFor();
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByLabel('Description (optional)').fill('Order system');
      await page.getByRole('checkbox', { name: /^All events/ }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();

      const secret = await page.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await page.getByText('It is shown only this once').waitFor();
      const list = await api('GET', orgPath('/webhooks'), { key: owner.tenant.keys.read });
      expect(list.body.data).toEqual([
        expect.objectContaining({ url, events: ['*'], description: 'Order system', enabled: true }),
      ]);
      const hookId = list.body.data[0].id;

      await page.getByRole('button', { name: 'Done, I have stored it' }).click();
      expect(await page.content()).not.toContain(secret);
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { level: 1, name: url }).waitFor();
      await page.getByText('Nothing sent yet.').waitFor();

      // A test event, sent now: the receiver gets it signed with the secret shown once.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Delivered: your endpoint answered 200').waitFor();
      const [first] = await receiver.waitFor(1);
      expect(first.headers['x-webhook-event']).toBe('webhook.test');
      expect(await verifyHexSignature(secret, first.body, first.headers['x-webhook-signature'] as string)).toBe(true);

      const log = page.getByRole('table', { name: 'Deliveries, newest first' });
      const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Delivered');
      expect(await row.textContent()).toContain('HTTP 200');

      expect(await axeViolations(page)).toEqual([]);
      await fits(page, DESKTOP);
      await shot(page, 'webhook-1280');
      await page.setViewportSize(PHONE);
      await fits(page, PHONE);
      await shot(page, 'webhook-375');
      await page.setViewportSize(DESKTOP);

      // The delivery's page: its attempt with the endpoint's answer, the body, and redelivery.
      await row.getByRole('link').click();
      await page.getByRole('heading', { level: 2, name: 'Delivery webhook.test' }).waitFor();
      expect(page.url()).toMatch(/\?delivery=[0-9a-f-]{36}$/);
      await page.getByText('Answered HTTP 200').waitFor();
      await page.getByText('thanks from the shop').waitFor();
      expect(await page.getByLabel('Request body').textContent()).toContain('"event": "webhook.test"');
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByText('Redelivered: delivered (HTTP 200)').waitFor({ timeout: 20_000 });
      const [, again] = await receiver.waitFor(2, 20_000);
      expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
      await expect.poll(() => page.locator('.attempts li').count()).toBe(2);
      await shot(page, 'webhook-delivery-1280');

      const deliveries = await api('GET', orgPath(`/webhooks/${hookId}/deliveries`), { key: owner.tenant.keys.read });
      expect(deliveries.body.data).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);

      await page.getByRole('button', { name: 'Back to all deliveries' }).click();
      await log.waitFor();

      // The list shows the endpoint with its last delivery.
      await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click();
      const item = page.getByRole('listitem').filter({ hasText: url });
      await item.getByText('Last delivery:').waitFor();
      expect(await item.textContent()).toContain('Delivered');
      expect(await axeViolations(page)).toEqual([]);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await fits(page, viewport);
        await shot(page, `webhooks-${viewport.width}`);
      }
    });
  });

  it('edits an endpoint, turns it off and on, rotates its secret and deletes it after asking', async () => {
    const created = await api('POST', orgPath('/webhooks'), {
      key: owner.tenant.keys.write,
      body: { url: `${receiver.url}/second`, events: ['review.created'] },
    });
    expect(created.status).toBe(201);
    const hook = () => api('GET', orgPath(`/webhooks/${created.body.id}`), { key: owner.tenant.keys.read });

    await withPage(appPath(`/developers/webhooks/${created.body.id}`), async (page) => {
      await page.getByRole('heading', { level: 1, name: `${receiver.url}/second` }).waitFor();

      await page.getByLabel('Description (optional)').fill('Reviews to the CRM');
      await page.getByRole('checkbox', { name: /review\.replied/ }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      expect((await hook()).body).toMatchObject({
        description: 'Reviews to the CRM',
        events: ['review.created', 'review.replied'],
      });

      // The API's own message for a bad URL shows next to the field.
      await page.getByLabel('Endpoint URL').fill('ftp://127.0.0.1/x');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('#f-url-error').waitFor();
      expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
      expect((await hook()).body.url).toBe(`${receiver.url}/second`);
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}/second`);

      await page.getByRole('button', { name: 'Turn off' }).click();
      await page.getByRole('button', { name: 'Yes, turn off' }).click();
      await page.getByText(/This endpoint is off since/).waitFor();
      expect((await hook()).body.enabled).toBe(false);
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('button', { name: 'Turn off' }).waitFor();
      expect((await hook()).body.enabled).toBe(true);

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('button', { name: 'Yes, rotate' }).click();
      const secret = await page.getByLabel('New signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(created.body.secret);
      await page.getByRole('button', { name: 'Done, I have stored it' }).click();
      await page.getByText(/Last rotated/).waitFor();
      expect(await page.content()).not.toContain(secret);

      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('Delete this endpoint?').waitFor();
      expect((await hook()).status).toBe(200);
      await page.getByRole('button', { name: 'Yes, delete endpoint' }).click();
      await page.getByText('The endpoint is deleted.').waitFor();
      expect(page.url()).toContain(appPath('/developers/webhooks'));
    });
    expect((await hook()).status).toBe(404);
  });
});

describe('exports', () => {
  it('creates an export, follows it until it is ready and downloads the file', async () => {
    const form = await createForm(owner.tenant, { verification_mode: 'none' });
    await postReviews(form.id, owner.tenant.org.slug, [
      [5, 'Lovely mug', 'The glaze is beautiful.', 'Mona M.'],
      [3, 'Fine plate', 'A little chipped, otherwise fine.', 'Pete P.'],
      [5, 'Great bowl', 'Deep and sturdy.', 'Bea B.'],
    ]);
    await withPage(appPath('/exports'), async (page) => {
      await page.getByText('No export yet.').waitFor();
      await page.getByLabel('Rating').selectOption('5');
      await page.getByRole('button', { name: 'Create export' }).click();
      await page.getByText(/Your export is ready: 2 reviews/).waitFor({ timeout: 20_000 });

      const jobs = await api('GET', orgPath('/exports'), { key: owner.tenant.keys.read });
      expect(jobs.body.data).toEqual([
        expect.objectContaining({ format: 'csv', status: 'completed', row_count: 2, filters: { rating: 5 } }),
      ]);

      const link = page.getByRole('link', { name: /^Download CSV/ });
      expect(await link.getAttribute('href')).toBe(orgPath(`/exports/${jobs.body.data[0].id}/download`));
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text.split('\r\n')[0]).toMatch(/^id,rating,title,content/);
      expect(text).toContain('Lovely mug');
      expect(text).toContain('Great bowl');
      expect(text).not.toContain('Fine plate');
      expect(download.suggestedFilename()).toMatch(/\.csv$/);

      expect(await axeViolations(page)).toEqual([]);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await fits(page, viewport);
        await shot(page, `exports-${viewport.width}`);
      }
    });
  });

  it("shows the API's message next to a filter it refuses", async () => {
    await withPage(appPath('/exports'), async (page) => {
      await page.getByLabel('From', { exact: true }).fill('2026-03-02');
      await page.getByLabel('To', { exact: true }).fill('2026-03-01');
      await page.getByRole('button', { name: 'Create export' }).click();
      await page.locator('[id="f-filters.endDate-error"]').waitFor();
      expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    });
  });
});

describe('a member', () => {
  it('does not see keys, which are for owners and admins, but manages webhooks and exports', async () => {
    const email = personEmail('member');
    await addMember(owner.tenant, email, 'member', 'Mia Member');
    const session = await signIn(email);
    const page = await openDashboard(browser(), session, appPath('/reviews'));
    try {
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await nav.getByRole('link', { name: 'Exports' }).waitFor();
      expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
      await nav.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByRole('button', { name: /add an endpoint/i }).waitFor();

      await page.goto(`${inject('apiUrl')}${appPath('/developers/keys')}`);
      await page.getByText("This page is for the organization's owners and admins; your role is member.").waitFor();
      expect(await page.getByRole('button', { name: 'Create a key' }).count()).toBe(0);

      await nav.getByRole('link', { name: 'Exports' }).click();
      await page.getByRole('heading', { level: 1, name: 'Exports' }).waitFor();
      await page.getByRole('button', { name: 'Create export' }).waitFor();
    } finally {
      await page.context().close();
    }
    // The API agrees: a member's session cannot make a key, and reads the webhooks.
    const res = await asSession(session, 'POST', orgPath('/api-keys'), { body: { name: 'mine', scope: 'admin' } });
    expect(res.status).toBe(403);
    expect((await asSession(session, 'GET', orgPath('/webhooks'))).status).toBe(200);
  });
});
