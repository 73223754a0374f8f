/// <reference lib="dom" />
// The Connections screens in a real browser, as a shop owner uses them: Shopify connected with its
// steps (the URL to paste, the topics to tick), its first order seen in the last events, then
// removed after a confirmation; a `webhook` connection's secret shown once; the automation turned
// on with a product excluded through the picker; an order's timeline saying in plain words why it
// made no request, and another's request reached from the request's own page. axe-core finds no
// violation; screenshots at 390 and 1,280 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { automate, connect, deliver, fixture, type TestConnection } from '../../helpers/connections.ts';
import {
  DESKTOP,
  onDashboardPage,
  shot,
  type SignedInOwner,
  signedInOwner,
  type Viewport,
} from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, postForm } from '../../helpers/review-requests.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();
const PHONE: Viewport = { width: 390, height: 844 };
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');

let owner: SignedInOwner;
let worker: TestWorker;
let formId: string;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport: Viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, fn, viewport);

/** Nothing wider than the screen, no axe-core violation, and a screenshot. */
async function looksRight(page: Page, viewport: Viewport, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, `${name}-${viewport.width}`);
}

/** The fixture's Shopify order for this shop's customer, placed `days` ago. */
function shopifyOrder(name: string, days = 3) {
  const o = fixture('shopify-order');
  o.name = name;
  o.id = Number(name.replace(/\D/g, '')) * 1000 + 7;
  o.email = `jon-${name.replace(/\D/g, '')}@example.com`;
  o.customer.email = o.email;
  o.created_at = o.processed_at = o.updated_at = ago(days);
  return o;
}

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  worker = await startWorker([owner.tenant.org.id]);
  formId = (await createForm(owner.tenant)).id;
  await db`insert into plaudit.products (org_id, external_id, name) values
    (${owner.tenant.org.id}, '632910392', 'Touring bike'), (${owner.tenant.org.id}, '921728736', 'Bike bell')`;
});

afterAll(async () => {
  await worker?.stop();
});

describe('connecting a shop', () => {
  it('connects Shopify with its steps, shows its first event, and removes it after a confirmation', async () => {
    const secret = `shpss_${Math.random().toString(36).slice(2)}`;
    let c: TestConnection | undefined;
    await withPage(appPath('/connections'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Shop connections' }).waitFor();
      await page.getByText('No shop connected yet').waitFor();
      await page.getByRole('button', { name: 'Connect a shop' }).click();
      await page.getByRole('radio', { name: /^Shopify/ }).check();
      // The steps name where to go in Shopify and every topic to tick.
      await page.getByText('Settings → Notifications → Webhooks').waitFor();
      for (const topic of ['orders/partially_fulfilled', 'fulfillments/update', 'refunds/create', 'products/delete']) {
        await page.getByText(topic, { exact: true }).first().waitFor();
      }
      await page.getByLabel('Shop domain').fill(`${owner.tenant.org.slug}.myshopify.com`);
      await page.getByLabel('Webhook signing secret').fill(secret);
      await page.getByLabel('Admin API access token (optional)').fill('shpat_browser-token');
      await looksRight(page, DESKTOP, 'connections-connect-shopify');
      await page.getByRole('button', { name: 'Connect', exact: true }).click();

      await page.getByRole('heading', { name: /is connected$/ }).waitFor();
      const inbound = await page.getByLabel('Inbound URL').inputValue();
      const id = inbound.match(/\/api\/v1\/connections\/([0-9a-f-]{36})\/events$/)![1];
      c = { id, platform: 'shopify', secret, inbound: `/api/v1/connections/${id}/events` };
    });

    // The shop sends its first order.
    expect(await deliver(owner.tenant, c!, shopifyOrder('#2001'), { topic: 'orders/create' })).toBe('accepted');
    // A rating the worker sent to the shop, as its write-back log holds it.
    await db`insert into plaudit.shopify_write_backs (org_id, connection_id, product_id, status, attempts, rating,
                                                      rating_count, sent_at)
             select ${owner.tenant.org.id}, ${c!.id}, p.id, 'sent', 1, '4.5', 2, now()
               from plaudit.products p where p.org_id = ${owner.tenant.org.id} and p.external_id = '632910392'`;

    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(appPath(`/connections/${c!.id}`), async (page) => {
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByRole('button', { name: 'Check the last events' }).click();
        const events = page.getByRole('region', { name: 'Last events' });
        await events.getByText('orders/create').waitFor();
        await events.getByText('Accepted').waitFor();
        const ratings = page.getByRole('region', { name: 'Ratings in Shopify' });
        await ratings.getByText('4.5 ★ from 2 reviews').waitFor();
        await ratings.getByText('Sent', { exact: true }).waitFor();
        await looksRight(page, viewport, 'connections-shopify');
      }, viewport);
    }

    await withPage(appPath(`/connections/${c!.id}`), async (page) => {
      await page.getByRole('button', { name: /^Disconnect/ }).click();
      await page.getByText(/this cannot be undone/).waitFor();
      await page.getByRole('button', { name: 'Yes, remove it' }).click();
      await page.getByText('The connection is removed').waitFor();
    });
    const gone = await api('GET', `/api/v1/organizations/${owner.tenant.org.id}/connections/${c!.id}`, {
      key: owner.tenant.keys.admin,
    });
    expect(gone.status).toBe(404);
  });

  it("shows a webhook connection's signing secret once, with the way to sign", async () => {
    await withPage(appPath('/connections'), async (page) => {
      await page.getByRole('button', { name: 'Connect a shop' }).click();
      await page.getByRole('radio', { name: /^Any other shop/ }).check();
      await page.getByText('Standard Webhooks', { exact: true }).waitFor();
      await page.getByLabel('Name (optional)').fill('Medusa store');
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByText('It is shown only this once').waitFor();
      expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      await looksRight(page, DESKTOP, 'connections-webhook-secret');
      await page.getByRole('button', { name: 'Done, I have stored it' }).click();
      await expect.poll(() => page.getByLabel('Signing secret').count()).toBe(0);
      await page.getByRole('link', { name: 'Medusa store' }).waitFor();
    });
  });
});

describe('the automation', () => {
  it('turns on, with its trigger, delay, form and a product excluded through the picker', async () => {
    await withPage(appPath('/connections'), async (page) => {
      const card = page.getByRole('form', { name: 'Ask every customer automatically' });
      await card.getByLabel('Send a review request for every order from my connected shops').check();
      await card.getByRole('radio', { name: /^When it is delivered/ }).check();
      await card.getByLabel('Days to wait after that').fill('10');
      // Without a form the automation cannot be on: the page says so by the field.
      await card.getByRole('button', { name: 'Save automation' }).click();
      await card.getByText('the automation needs a form to be enabled').waitFor();
      await card.getByLabel('Review form').selectOption({ label: 'After purchase' });
      await card.getByRole('combobox', { name: 'Exclude a product' }).fill('bell');
      await page.getByRole('option', { name: /Bike bell/ }).click();
      await card.getByRole('button', { name: 'Remove 921728736' }).waitFor();
      await card.getByRole('button', { name: 'Save automation' }).click();
      await card.getByText('Saved.').waitFor();
      await looksRight(page, DESKTOP, 'connections-automation');
    });
    const res = await api('GET', `/api/v1/organizations/${owner.tenant.org.id}/review-requests/automation`, {
      key: owner.tenant.keys.admin,
    });
    expect(res.body).toMatchObject({
      enabled: true,
      trigger: 'delivered',
      delay_days: 10,
      exclude_products: ['921728736'],
    });
  });
});

describe('orders', () => {
  let c: TestConnection;
  beforeAll(async () => {
    c = await connect(owner.tenant, 'shopify');
  });

  it('says in plain words why an order made no request', async () => {
    await automate(owner.tenant, formId, { enabled: false, trigger: 'fulfilled' });
    expect(await deliver(owner.tenant, c, shopifyOrder('#3001'), { topic: 'orders/fulfilled' })).toBe('accepted');

    await withPage(appPath('/orders'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      await page.getByText('No review request: Automatic review requests were off').waitFor();
      await looksRight(page, DESKTOP, 'orders');
    });
    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(appPath(`/orders/${encodeURIComponent('#3001')}`), async (page) => {
        await page.getByRole('heading', { level: 1, name: 'Order #3001' }).waitFor();
        await page.getByText('Automatic review requests were off when the order reached its trigger.').waitFor();
        await page.getByText(/^Happened .* reached Plaudit /).first().waitFor();
        await looksRight(page, viewport, 'order-skipped');
      }, viewport);
    }
  });

  it('leads from a review request to its order, whose timeline shows the request', async () => {
    await automate(owner.tenant, formId, { enabled: true, trigger: 'fulfilled', delay_days: 7, exclude_products: [] });
    // Two items the catalog knows, and one it does not (a gift card the shop never synced).
    const order = () => {
      const o = shopifyOrder('#3002');
      o.line_items.push({ ...o.line_items[0], id: 1, product_id: 777001, title: 'Gift card' });
      return o;
    };
    expect(await deliver(owner.tenant, c, order(), { topic: 'orders/create' })).toBe('accepted');
    expect(await deliver(owner.tenant, c, order(), { topic: 'orders/fulfilled' })).toBe('accepted');
    const [request] = await db`select id from plaudit.review_requests
                                where org_id = ${owner.tenant.org.id} and order_id = '#3002'`;
    await withPage(appPath(`/requests/${request.id}`), async (page) => {
      await page.getByRole('link', { name: '#3002' }).click();
      await page.getByRole('heading', { level: 1, name: 'Order #3002' }).waitFor();
      await page.getByRole('link', { name: 'Review request', exact: true }).waitFor();
      await page.getByText('Shipped (fulfilled)').first().waitFor();
      // The items by the catalog's names, each leading to its product; the unknown one by its id.
      const items = await page.locator('.order-items li')
        .evaluateAll((lis) => lis.map((li) => li.textContent!.replace(/\s+/g, ' ').trim()));
      expect(items).toEqual([
        'Touring bike (632910392) × 1',
        'Bike bell (921728736) × 1',
        '777001 not in the catalog × 1',
      ]);
      const [bike] = await db`select id from plaudit.products
                               where org_id = ${owner.tenant.org.id} and external_id = '632910392'`;
      expect(await page.getByRole('link', { name: 'Touring bike' }).getAttribute('href'))
        .toBe(appPath(`/products/${bike.id}`));
      await looksRight(page, DESKTOP, 'order-requested');
    });
    // The review written through that request leads to the same order.
    const [{ token }] = await db`select plaudit.review_request_token(id) as token from plaudit.review_requests
                                 where id = ${request.id}`;
    const [{ email }] = await db`select email from plaudit.review_requests where id = ${request.id}`;
    const sent = await postForm(`${inject('apiUrl')}/r/${token}`, {
      rating: '5',
      content: 'Arrived quickly and well packed.',
      reviewer_name: 'Bea',
      reviewer_email: email,
    });
    expect(sent.status).toBe(303); // back to the request's page, thanking for its product's review
    const [review] = await db`select review_id from plaudit.review_requests where id = ${request.id}`;
    expect(review.review_id).not.toBeNull();
    await withPage(appPath(`/reviews/${review.review_id}`), async (page) => {
      await page.getByRole('link', { name: '#3002' }).click();
      await page.getByRole('heading', { level: 1, name: 'Order #3002' }).waitFor();
    });
  });
});
