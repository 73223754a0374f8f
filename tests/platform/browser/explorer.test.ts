/// <reference lib="dom" />
// The API explorer at /docs in a real browser (Debian's chromium, driven by playwright-core) with
// every request to a host other than this server refused: the page renders the document, and a key
// pasted into it makes a call that answers 200 with the organization, so the explorer needs nothing
// from the internet (fonts, proxy, AI agent, CDN).
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../../helpers/browser.ts';
import { createTenant } from '../../helpers/db.ts';

const browser = useBrowser();

const base = () => inject('apiUrl');
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('API explorer in a browser', () => {
  it('renders offline and a pasted key makes a call that answers 200', async () => {
    const t = await createTenant();
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    // Anything not on this server is refused, and noted.
    const thirdParty: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
      thirdParty.push(url.href);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/v1/organizations/')) calls.push(r.url());
    });
    try {
      await page.goto(`${base()}/docs`);
      await page.getByRole('heading', { name: 'Plaudit API', level: 1 }).waitFor();
      const sidebar = page.getByRole('navigation', { name: 'Sidebar for Plaudit API' });
      await sidebar.getByRole('button', { name: /^Organizations/ }).click();
      await sidebar.getByRole('button', { name: /^Get organization details/ }).click();
      await page.getByRole('heading', { name: 'Get organization details', level: 3 }).waitFor();

      // Paste the key into the document's authentication, then try the call in the client.
      await page.getByRole('textbox', { name: 'Bearer Token' }).first().fill(t.keys.read);
      await page.getByRole('button', { name: 'Test Request (get /api/v1/organizations/{orgId})' }).click();
      const client = page.getByRole('dialog', { name: 'API Client' });
      // The key carried over from the document.
      await expect.poll(() => client.getByRole('textbox', { name: 'Bearer Token' }).inputValue()).toBe(t.keys.read);
      const orgIdValue = client.getByRole('region', { name: 'Variables' }).getByRole('row').nth(1).getByRole('textbox')
        .nth(1);
      await orgIdValue.click();
      await page.keyboard.type(t.org.id);
      await page.keyboard.press('Tab');
      // The client takes the value in a moment: wait until its code snippet shows it.
      await client.getByRole('button', { name: /^Code Snippet/ }).click();
      await expect.poll(() => client.getByRole('region', { name: /^Code Snippet/ }).textContent()).toContain(t.org.id);
      await client.getByRole('button', { name: /^Send get request/ }).click();

      const response = client.getByRole('region', { name: 'Response', exact: true });
      await response.getByRole('link', { name: '200 OK' }).waitFor();
      await expect.poll(() => response.getByRole('region', { name: 'Body' }).textContent()).toContain(
        `"name": "${t.org.name}"`,
      );
      expect(calls).toEqual([`${base()}/api/v1/organizations/${t.org.id}`]);

      // Nothing was asked of any other host: no fonts, no proxy, no agent, no CDN.
      expect(thirdParty).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
