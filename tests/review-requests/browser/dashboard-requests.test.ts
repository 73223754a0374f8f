/// <reference lib="dom" />
// Review requests in the dashboard, in a real browser, as a shop owner uses them: sending one
// request (the e-mail arrives through real SMTP, the request is listed and its page shows the
// timeline); uploading a CSV file of 50 customers of which 2 are bad (the preview names the rows
// and their problems before anything is sent, and sending creates exactly the 48 others, even when
// the answer is lost and the owner tries again with a double click, or the call is replayed: one
// Idempotency-Key per file); the statistics with a uPlot chart, fetched only on that screen, and
// its table; the daily limit, reminders and the suppression list. axe-core finds no violation;
// screenshots at 375 and 1,280 px.
import { readFileSync } from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let form: { id: string };
let worker: TestWorker;
let domain: string;
const orgPath = (rest = '') => `/api/v1/organizations/${owner.tenant.org.id}${rest}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const ours = (to: string) => to.endsWith(`@${domain}`);

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  form = await createForm(owner.tenant, { name: 'After purchase' });
  domain = `${owner.tenant.org.slug}.example.com`;
  worker = await mailWorker([owner.tenant.org.id]);
});

afterAll(async () => {
  await worker?.stop();
});

/** Like the other screens' tests, and no script error on the page while `fn` runs. */
const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const result = await fn(page);
    expect(errors).toEqual([]);
    return result;
  }, viewport);

/** The organization's requests as the API lists them (a read key: what the owner's clicks made). */
async function requests(query: Record<string, string> = {}) {
  const res = await api('GET', `${orgPath('/review-requests')}?${new URLSearchParams({ limit: '100', ...query })}`, {
    key: owner.tenant.keys.read,
  });
  expect(res.status).toBe(200);
  return res.body as {
    data: { id: string; email: string; status: string; order_id: string | null }[];
    meta: { total: number };
  };
}

/** No violation, no sideways scrolling, and a screenshot at each width. */
async function check(
  path: string,
  name: string,
  ready: (page: Page) => Promise<unknown>,
  prepare?: (page: Page) => Promise<unknown>,
) {
  for (const viewport of [DESKTOP, PHONE]) {
    await withPage(path, async (page) => {
      await ready(page);
      await prepare?.(page);
      expect(await axeViolations(page), `${name} at ${viewport.width}`).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${name} scrolls sideways at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      await shot(page, `requests-${name}-${viewport.width}`);
    }, viewport);
  }
}

/** 50 customers as a spreadsheet writes them (BOM, semicolons, CRLF, a quoted name), row 11 with a bad address and row 31 without one. */
function customersCsv(): string {
  const lines = ['email;name;order_id;external_id'];
  for (let i = 1; i <= 50; i++) {
    const n = String(i).padStart(2, '0');
    const email = i === 10 ? 'not-an-email' : i === 30 ? '' : `bulk-${n}@${domain}`;
    const name = i === 7 ? '"Meier; Bruno ""Bru"""' : `Customer ${n}`;
    lines.push(`${email};${name};B-${n};bulk-${owner.tenant.org.slug}-${n}`);
  }
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

describe('one request', () => {
  it('is sent from the form: the e-mail arrives, the request is listed and its page shows the timeline', async () => {
    const email = `ada@${domain}`;
    await withPage(appPath('/requests'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Review requests' }).waitFor();
      await page.getByText('No review requests yet').waitFor();
      await page.getByRole('link', { name: 'Requests', exact: true }).and(page.locator('[aria-current="page"]'))
        .waitFor();
      await page.getByLabel("Customer's e-mail").fill(email);
      await page.getByLabel("Customer's name").fill('Ada Lovelace');
      await page.getByLabel('Order reference (optional)').fill('A-1001');
      expect(await page.getByLabel('Review form').inputValue()).toBe(form.id);
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.getByText(`Review request to ${email} is queued`).waitFor();

      // The customer's mail arrives through the worker and real SMTP.
      const [mail] = await waitForMail((to) => to === email, 1);
      expect(mail.text).toContain('Ada Lovelace');
      const listed = await requests({ email });
      expect(listed.meta.total).toBe(1);
      expect(listed.data[0].order_id).toBe('A-1001');

      // The list shows it, and its link opens the request.
      const row = page.locator('.rr-table tbody tr').filter({ hasText: email });
      await row.waitFor();
      expect(await row.textContent()).toContain('A-1001');
      await row.getByRole('link', { name: 'Ada Lovelace' }).click();
      await page.getByRole('heading', { level: 1, name: 'Request to Ada Lovelace' }).waitFor();
      expect(page.url()).toContain(`/requests/${listed.data[0].id}`);
      // The worker records the send right after SMTP accepted it.
      await expect.poll(async () => (await requests({ email })).data[0].status, { timeout: 15_000 }).not.toBe('queued');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.locator('.rr-timeline').getByText('E-mail sent').waitFor();
      expect(await page.locator('.rr-timeline li').first().textContent()).toContain('Queued');
    });
    const [{ id }] = (await requests({ email })).data;
    await check(
      appPath(`/requests/${id}`),
      'request',
      (page) => page.locator('.rr-timeline').getByText('E-mail sent').waitFor(),
    );
  });

  it("shows the API's message next to the field it names", async () => {
    await withPage(appPath('/requests'), async (page) => {
      await page.getByLabel("Customer's e-mail").fill(`ref@${domain}`);
      await page.getByLabel("Customer's name").fill('Ref Erence');
      await page.getByText('More options').click();
      await page.getByLabel('Your reference (optional)').fill('same-ref');
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.getByText(`Review request to ref@${domain} is queued`).waitFor();
      // Another customer with the same reference: refused, and said at the field.
      await page.getByLabel("Customer's e-mail").fill(`ref2@${domain}`);
      await page.getByLabel("Customer's name").fill('Ref Two');
      await page.getByLabel('Your reference (optional)').fill('same-ref');
      await page.getByRole('button', { name: 'Send request' }).click();
      const field = page.getByLabel('Your reference (optional)');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#f-external_id-error').textContent()).toContain('exists already');
      expect((await requests({ external_id: 'same-ref' })).meta.total).toBe(1);
    });
  });
});

describe('sending from a CSV file', () => {
  it('previews the rows with their problems, then sends exactly the valid ones once', async () => {
    const before = (await requests()).meta.total;
    await withPage(appPath('/requests/bulk'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Send from a CSV file' }).waitFor();

      // The template downloads as a CSV file with the columns the upload reads.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the CSV template' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('review-requests-template.csv');
      const template = readFileSync((await download.path())!, 'utf8');
      expect(template.split('\r\n')[0]).toBe('email,name,order_id,external_id,locale,send_at');

      // A file dropped on the page is read like a chosen one.
      const dropped = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.csv', { type: 'text/csv' }));
        return dt;
      }, `email,name\r\ndrop@${domain},Drop Test\r\n`);
      await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: dropped });
      await page.getByRole('heading', { name: 'Preview of dropped.csv' }).waitFor();

      // The real file: 50 rows, 2 of them bad.
      await page.getByLabel('Choose another CSV file').setInputFiles({
        name: 'customers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(customersCsv()),
      });
      await page.getByRole('heading', { name: 'Preview of customers.csv' }).waitFor();
      const summary = await page.locator('.bulk-summary').textContent();
      expect(summary).toContain('50 rows');
      expect(summary).toContain('48 ready');
      expect(summary).toContain('2 with problems');
      const problems = page.locator('.problem-list li');
      expect(await problems.count()).toBe(2);
      expect(await problems.nth(0).textContent()).toBe(
        'Row 11 (Customer 10): "not-an-email" is not a valid e-mail address.',
      );
      expect(await problems.nth(1).textContent()).toBe('Row 31 (Customer 30): E-mail missing.');
      // Quotes and semicolons inside a quoted cell are the name's.
      await page.locator('.bulk-table').getByText('Meier; Bruno "Bru"').waitFor();
      // Nothing is sent before the owner says so.
      expect((await requests()).meta.total).toBe(before);

      await page.getByLabel('Show only the rows with problems').check();
      expect(await page.locator('.bulk-table tbody tr').count()).toBe(2);
      await page.getByLabel('Show only the rows with problems').uncheck();

      // The first answer is lost on its way back (the server did the work).
      const bulkCalls: Request[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/review-requests/bulk')) bulkCalls.push(r);
      });
      let lost = false;
      await page.route('**/review-requests/bulk', async (route) => {
        if (lost) return await route.continue();
        lost = true;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await page.getByRole('button', { name: 'Send 48 review requests' }).click();
      await page.getByText('The server could not be reached').waitFor();
      expect((await requests()).meta.total).toBe(before + 48);

      // The owner tries again, with a double click: the same key answers the first result.
      await page.getByRole('button', { name: 'Try again' }).dblclick();
      await page.getByRole('heading', { name: 'Result for customers.csv' }).waitFor();
      expect(await page.locator('.notice-success').textContent()).toContain('48 review requests queued');
      expect(bulkCalls.length).toBe(2);
      const keys = bulkCalls.map((r) => r.headers()['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect((await requests()).meta.total).toBe(before + 48);

      // A replay of the very call (a browser retry, say) creates nothing either.
      const replay = await page.evaluate(async ({ url, headers, body }) => {
        const res = await fetch(url, { method: 'POST', headers, body, credentials: 'same-origin' });
        return {
          status: res.status,
          replayed: res.headers.get('idempotent-replayed'),
          accepted: (await res.json()).accepted,
        };
      }, { url: bulkCalls[1].url(), headers: bulkCalls[1].headers(), body: bulkCalls[1].postData()! });
      expect(replay).toEqual({ status: 202, replayed: 'true', accepted: 48 });

      // The result names every row: 48 queued with a link each, 2 not sent with the reason.
      const rows = page.locator('.bulk-table tbody tr');
      expect(await rows.count()).toBe(50);
      expect(await page.locator('.bulk-table a').count()).toBe(48);
      expect(await rows.nth(9).textContent()).toContain('Not sent');
      expect(await rows.nth(29).textContent()).toContain('E-mail missing');
      await shot(page, 'requests-csv-result-1280');
    });

    // Exactly 48 requests, one e-mail each, to the 48 good addresses.
    const [{ n, addresses }] = await db`
      select count(*)::int as n, count(distinct lower(email))::int as addresses from plaudit.review_requests
      where org_id = ${owner.tenant.org.id} and external_id like ${`bulk-${owner.tenant.org.slug}-%`}`;
    expect({ n, addresses }).toEqual({ n: 48, addresses: 48 });
    const [{ mails }] = await db`
      select count(*)::int as mails from plaudit.email_outbox
      where org_id = ${owner.tenant.org.id} and template = 'review_request' and to_address like 'bulk-%'`;
    expect(mails).toBe(48);
    await waitForMail((to) => ours(to) && to.startsWith('bulk-'), 48, 60_000);
  });

  it('passes axe and fits a phone with the preview and its problems', async () => {
    await check(appPath('/requests/bulk'), 'csv-preview', async (page) => {
      await page.getByLabel('Choose a CSV file').setInputFiles({
        name: 'customers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(customersCsv()),
      });
      await page.locator('.problem-list li').nth(1).waitFor();
    });
  });
});

describe('the list', () => {
  it('filters by status and pages, and passes axe at both widths', async () => {
    await withPage(appPath('/requests'), async (page) => {
      const rows = page.locator('.rr-table tbody tr');
      await expect.poll(() => rows.count()).toBe(25);
      expect(await page.locator('.pager').textContent()).toContain('Page 1 of 2');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(/page=2/);
      await page.getByLabel('E-mail address').fill(`bulk-07@${domain}`);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('Meier; Bruno "Bru"');
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByLabel('Status').selectOption('failed');
      await page.waitForURL(/status=failed/);
      await page.getByText('No request matches these filters.').waitFor();
    });
    await check(appPath('/requests'), 'list', (page) => page.locator('.rr-table tbody tr').nth(24).waitFor());
  });
});

describe('statistics', () => {
  it('draws the daily chart with uPlot, fetched only on this screen, beside a table of the numbers', async () => {
    const fetched: string[] = [];
    await withPage(appPath('/requests'), async (page) => {
      page.on('request', (r) => fetched.push(r.url()));
      await page.locator('.rr-table tbody tr').first().waitFor();
      expect(fetched.filter((u) => /uPlot/i.test(u))).toEqual([]);
      await page.getByRole('link', { name: 'Statistics' }).click();
      await page.getByRole('heading', { level: 1, name: 'Review request statistics' }).waitFor();
      await page.locator('.stats-chart .uplot canvas').waitFor();
      expect(fetched.filter((u) => /uPlot.*\.js$/.test(u)).length).toBe(1);
      expect(fetched.filter((u) => /uPlot.*\.css$/.test(u)).length).toBe(1);

      const requested = 1 + 1 + 48;
      expect(await page.locator('.stat-card').first().textContent()).toContain(String(requested));
      const figure = page.getByRole('img', { name: /Line chart of review requests per day/ });
      expect(await figure.getAttribute('aria-label')).toContain(`requested ${requested}`);
      await page.getByText('The daily numbers as a table').click();
      const table = page.getByRole('table', { name: /Review requests per day/ });
      expect(await table.locator('tbody tr').count()).toBe(30);
      const today = table.locator('tbody tr').last();
      expect(await today.locator('td').first().textContent()).toBe(String(requested));

      await page.getByLabel('Period').selectOption('7');
      await page.waitForURL(/period=7/);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(7);
      await page.locator('.stats-chart .uplot canvas').waitFor();
    });
    await check(
      appPath('/requests/stats'),
      'stats',
      (page) => page.locator('.stats-chart .uplot canvas').waitFor(),
      (page) => page.getByText('The daily numbers as a table').click(),
    );
  });
});

describe('settings', () => {
  it('changes reminders, and adds and lifts a suppression after asking', async () => {
    await withPage(appPath('/requests/settings'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Review request settings' }).waitFor();
      await page.getByText(/requests used today/).waitFor();
      await page.getByLabel('Send reminders to customers who have not written a review').check();
      await page.getByLabel('Days before a reminder').fill('5');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('The settings are saved.').waitFor();
      const settings = await api('GET', orgPath('/review-requests/settings'), { key: owner.tenant.keys.read });
      expect(settings.body).toMatchObject({ reminders_enabled: true, reminder_delay_days: 5 });

      const email = `nomail@${domain}`;
      await page.getByLabel('Add an address').fill(email);
      await page.getByRole('button', { name: 'Add to the list' }).click();
      await page.getByText(`${email} gets no more review requests.`).waitFor();
      const listed = await api('GET', `${orgPath('/suppressions')}?email=${email}`, { key: owner.tenant.keys.read });
      expect(listed.body.meta.total).toBe(1);

      const item = page.locator('.suppressions li').filter({ hasText: email });
      await item.getByRole('button', { name: `Lift ${email}` }).click();
      await item.getByText('may get review requests again').waitFor();
      expect(
        (await api('GET', `${orgPath('/suppressions')}?email=${email}`, { key: owner.tenant.keys.read })).body.meta
          .total,
      ).toBe(1);
      await item.getByRole('button', { name: 'Yes, lift it' }).click();
      await page.getByRole('status').filter({ hasText: `${email} may get review requests again.` }).waitFor();
      await page.getByText('No address is suppressed.').waitFor();
      expect(
        (await api('GET', `${orgPath('/suppressions')}?email=${email}`, { key: owner.tenant.keys.read })).body.meta
          .total,
      ).toBe(0);
    });
    await check(appPath('/requests/settings'), 'settings', (page) => page.getByText(/requests used today/).waitFor());
  });
});
