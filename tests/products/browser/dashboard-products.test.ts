/// <reference lib="dom" />
// The dashboard's products in a real browser, as a shop owner keeps a catalog: the list (typed
// search kept in the URL, archived products on request, the empty catalog's explanation), adding
// a product, changing one with the API's message under the field it names, archiving and deleting,
// the product's reviews, the inbox filtered by product, and a CSV catalog checked row by row
// before it is sent. axe-core finds no violation; screenshots at 375 and 1,280 px.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let mug: { id: string };
const orgPath = () => `/api/v1/organizations/${owner.tenant.org.id}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const LONG_NAME = 'Hand-thrown stoneware serving bowl with a speckled oat glaze, dishwasher safe, ' +
  'made to order in our studio <b>not bold</b>';
// A 1×1 PNG, answered for the catalog's https pictures (the test machine has no network).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function product(id: string) {
  const res = await api('GET', `${orgPath()}/products/${id}`, { key: owner.tenant.keys.read });
  return res;
}

async function addProduct(body: Record<string, unknown>) {
  const res = await api('POST', `${orgPath()}/products`, { key: owner.tenant.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, async (page) => {
    // A step that waits in vain fails within the test's time, naming what it waited for.
    page.setDefaultTimeout(8000);
    await page.route('https://img.example/**', (route) => route.fulfill({ contentType: 'image/png', body: PNG }));
    return await fn(page);
  }, viewport);

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  // Two products before the rest, so that "newest first" puts them at the end.
  mug = await addProduct({
    external_id: 'MUG-1',
    name: 'Stoneware mug',
    group: 'mugs',
    brand: 'Acme',
    image_url: 'https://img.example/mug.png',
  });
  await addProduct({ external_id: 'VASE-1', name: 'Old vase', archived: true });
  // Given over http, as the API takes it: shown over https, as the pages show it.
  await addProduct({ external_id: 'BOWL-1', name: LONG_NAME, group: 'bowls', image_url: 'http://img.example/b.png' });
  const form = await createForm(owner.tenant, { verification_mode: 'none' });
  for (const [rating, title] of [[5, 'Perfect mug'], [4, 'Good mug, small handle']] as const) {
    const res = await api('POST', '/api/v1/reviews', {
      body: {
        form_id: form.id,
        rating,
        title,
        content: `${title}: it keeps the coffee warm.`,
        reviewer_name: 'Mia M.',
        reviewer_email: `mia-${rating}@example.com`,
        product_external_id: 'MUG-1',
      },
      headers: { 'x-forwarded-for': `198.51.100.${rating}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const res = await api('POST', '/api/v1/reviews', {
    body: {
      form_id: form.id,
      rating: 3,
      title: 'About the shop',
      content: 'Friendly shop, slow delivery.',
      reviewer_name: 'Sam S.',
      reviewer_email: 'sam@example.com',
    },
    headers: { 'x-forwarded-for': '198.51.100.9' },
  });
  expect(res.status).toBe(201);
});

describe('the products list', () => {
  it('of an empty catalog explains what products are and the three ways to add them', async () => {
    const { session, tenant } = await signedInOwner('Nina New');
    await onDashboardPage(browser(), session, `/app/o/${tenant.org.id}/products`, async (page) => {
      await page.getByRole('heading', { name: 'No product on sale' }).waitFor();
      const text = await page.locator('.empty').textContent();
      expect(text).toContain('Products are what you sell');
      expect(text).toContain('Upload a CSV file');
      expect(text).toContain('PUT /api/v1/organizations/…/products');
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'products-empty');
    });
  });

  it('lists the products on sale with pictures, ids, groups and stars; searches as you type, kept in the URL', async () => {
    await withPage(appPath('/reviews'), async (page) => {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
      const rows = page.locator('.product-table tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await page.title()).toBe(`Products · ${owner.tenant.org.name} · Plaudit`);
      // The name is text, never markup; the mug has its stars, average and count.
      expect(await rows.nth(0).locator('.product-name').textContent()).toBe(LONG_NAME);
      expect(await rows.nth(0).locator('b').count()).toBe(0);
      const mugRow = rows.nth(1);
      expect(await mugRow.textContent()).toContain('MUG-1');
      expect(await mugRow.textContent()).toContain('4.5 out of 5 (2 reviews)');
      expect(await mugRow.locator('img').getAttribute('alt')).toBe('');
      await expect.poll(() => mugRow.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      // The bowl's picture, given over http, is asked for over https: the page's policy loads no other.
      const bowlImg = rows.nth(0).locator('img');
      expect(await bowlImg.getAttribute('src')).toBe('https://img.example/b.png');
      await expect.poll(() => bowlImg.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'products-list');

      // Archived products on request, with their badge.
      await page.getByLabel('Show archived products').check();
      await page.waitForURL(/archived=any/);
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.filter({ hasText: 'Old vase' }).locator('.badge').textContent()).toBe('Archived');
      await page.getByLabel('Show archived products').uncheck();
      await expect.poll(() => rows.count()).toBe(2);

      // Typing searches after a pause; the search is in the URL, survives a reload, and Back leaves it.
      await page.getByLabel('Search').pressSequentially('stone');
      await page.waitForURL(/q=stone/);
      await expect.poll(() => rows.count()).toBe(2);
      await page.getByLabel('Search').pressSequentially('ware m');
      await page.waitForURL(/q=stoneware\+m/);
      await expect.poll(() => rows.count()).toBe(1);
      await page.reload();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await page.getByLabel('Search').inputValue()).toBe('stoneware m');
      await page.goBack();
      await page.waitForURL((url) => !url.search.includes('q='));
      await expect.poll(() => rows.count()).toBe(2);
      expect(await page.getByLabel('Search').inputValue()).toBe('');

      // A group's name filters by it.
      await rows.filter({ hasText: 'MUG-1' }).getByRole('button', { name: 'mugs' }).click();
      await page.waitForURL(/group=mugs/);
      await expect.poll(() => rows.count()).toBe(1);
      expect(await page.getByLabel('Group').inputValue()).toBe('mugs');
      await page.getByLabel('Search').fill('no such product');
      await page.getByText('No product matches these filters.').waitFor();
    });
  });

  it('fits a phone, the long name clipped to two lines', async () => {
    await withPage(appPath('/products'), async (page) => {
      await expect.poll(() => page.locator('.product-table tbody tr').count()).toBe(2);
      const name = page.locator('.product-name').first();
      const lines = await name.evaluate((el) =>
        el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)
      );
      expect(Math.round(lines)).toBeLessThanOrEqual(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'products-list-phone');
    }, PHONE);
  });
});

describe('a product', () => {
  it('is added by hand; a taken id is named under its field', async () => {
    await withPage(appPath('/products'), async (page) => {
      await page.getByRole('link', { name: 'Add product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add product' }).waitFor();
      await page.getByLabel('Your product id').fill('MUG-1');
      await page.getByLabel('Name', { exact: true }).fill('Teapot');
      await page.getByRole('button', { name: 'Add product' }).click();
      await page.getByText('external_id: a product with this external_id exists already').waitFor();
      await page.getByLabel('Your product id').fill('POT-1');
      await page.getByLabel('Brand (optional)').fill('Acme');
      await page.getByRole('button', { name: 'Add product' }).click();
      await page.getByText('The product is added.').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Teapot' }).waitFor();
      const id = page.url().match(/products\/([0-9a-f-]{36})/)![1];
      expect((await product(id)).body).toMatchObject({
        external_id: 'POT-1',
        name: 'Teapot',
        brand: 'Acme',
        group: null,
      });
    });
  });

  it("is changed in its form, the API's message under the field it names; then archived after asking", async () => {
    await withPage(appPath(`/products/${mug.id}`), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Stoneware mug' }).waitFor();
      await page.getByLabel('GTIN (optional)').fill('4006381333932');
      await page.getByLabel('Brand (optional)').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const error = page.locator('#f-gtin-error');
      await error.waitFor();
      expect(await error.textContent()).toBe('must be 8, 12, 13 or 14 digits with a valid check digit');
      expect(await page.getByLabel('GTIN (optional)').getAttribute('aria-invalid')).toBe('true');
      expect(await axeViolations(page)).toEqual([]);
      expect((await product(mug.id)).body).toMatchObject({ gtin: null, brand: 'Acme' });

      await page.getByLabel('GTIN (optional)').fill('4006381333931');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Your changes are saved.').waitFor();
      // An emptied field is cleared.
      expect((await product(mug.id)).body).toMatchObject({ gtin: '4006381333931', brand: null });

      // It has reviews: no deleting, only archiving, after a question.
      expect(await page.getByRole('button', { name: 'Delete product' }).count()).toBe(0);
      await page.getByText('A product with reviews cannot be deleted').waitFor();
      await page.getByRole('button', { name: 'Archive product' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect((await product(mug.id)).body.archived).toBe(false);
      await page.getByRole('button', { name: 'Archive product' }).click();
      await page.getByRole('button', { name: 'Archive', exact: true }).click();
      await page.getByText('The product is archived.').waitFor();
      expect(await page.locator('.product-sub .badge').textContent()).toBe('Archived');
      expect((await product(mug.id)).body.archived).toBe(true);
      await shot(page, 'product-page');
      // The question closed once answered; asked again, it now offers the way back.
      expect(await page.getByRole('group').count()).toBe(0);
      await page.getByRole('button', { name: 'Put back on sale' }).click();
      await page.getByRole('group', { name: 'Put back on sale' }).getByRole('button', { name: 'Put back on sale' })
        .click();
      await page.getByText('The product is on sale again').waitFor();
      expect((await product(mug.id)).body.archived).toBe(false);
    });
  });

  it('without reviews is deleted after asking', async () => {
    const extra = await addProduct({ external_id: 'GONE-1', name: 'Added by mistake' });
    await withPage(appPath(`/products/${extra.id}`), async (page) => {
      await page.getByRole('button', { name: 'Delete product' }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('The product is deleted.').waitFor();
      expect(new URL(page.url()).pathname).toBe(appPath('/products'));
      expect((await product(extra.id)).status).toBe(404);
    });
  });

  it('lists its reviews, each leading to the review, whose page leads back to the product', async () => {
    await withPage(appPath(`/products/${mug.id}`), async (page) => {
      const reviews = page.locator('.product-reviews .review-row');
      await expect.poll(() => reviews.count()).toBe(2);
      expect(await reviews.locator('.review-title').allTextContents()).toEqual([
        'Good mug, small handle',
        'Perfect mug',
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'product-page-phone-check');
      await reviews.getByRole('link', { name: 'Perfect mug' }).click();
      await page.getByRole('heading', { level: 1, name: 'Perfect mug' }).waitFor();
      await page.locator('.facts').getByRole('link', { name: 'Stoneware mug' }).click();
      await page.getByRole('heading', { level: 1, name: 'Stoneware mug' }).waitFor();
    });
  });
});

describe('the inbox', () => {
  it('filters by a product picked by typing its name or id, and names each review’s product', async () => {
    await withPage(appPath('/reviews'), async (page) => {
      const rows = page.locator('.review-row');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.filter({ hasText: 'Perfect mug' }).locator('.review-product').textContent()).toBe(
        'Product:Stoneware mug',
      );
      expect(await rows.filter({ hasText: 'About the shop' }).locator('.review-product').count()).toBe(0);

      const picker = page.getByRole('combobox', { name: 'Product' });
      await picker.pressSequentially('MUG-1');
      // The list follows the text once typing pauses, and is busy until it answers the text as typed:
      // then the product with this id is the one match, and no earlier search can replace it.
      const listbox = page.getByRole('listbox', { name: 'Product: matches' });
      const matches = listbox.getByRole('option');
      const option = matches.filter({ hasText: 'Stoneware mug' });
      await expect.poll(() => listbox.getAttribute('aria-busy')).toBe('false');
      expect(await matches.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await picker.press('ArrowDown');
      await expect.poll(() => option.getAttribute('aria-selected')).toBe('true');
      await picker.press('Enter');
      await page.waitForURL(new RegExp(`product_id=${mug.id}`));
      await expect.poll(() => rows.count()).toBe(2);
      expect(await picker.inputValue()).toBe('Stoneware mug');
      // Kept in the URL: a reload shows the product's name again.
      await page.reload();
      await expect.poll(() => page.getByRole('combobox', { name: 'Product' }).inputValue()).toBe('Stoneware mug');
      await expect.poll(() => rows.count()).toBe(2);
      await page.getByRole('button', { name: 'Clear the product Stoneware mug' }).click();
      await expect.poll(() => rows.count()).toBe(3);
      expect(page.url()).not.toContain('product_id');
    });
  });
});

describe('a CSV catalog', () => {
  const csv = [
    '\ufeffexternal_id;name;gtin;colour;group',
    'MUG-1;Stoneware mug;4006381333931;blue;mugs',
    'CUP-1;"Espresso cup; small";;white;cups',
    'CUP-2;Espresso cup, large;4006381333932;white;cups',
    ';Nameless;;;',
    'CUP-3;"Tea cup, ""fine""";036000291452;;cups',
  ].join('\r\n');

  it('is checked row by row before it is sent, then the good rows are uploaded and counted', async () => {
    await withPage(appPath('/products'), async (page) => {
      await page.getByRole('link', { name: 'Upload a CSV file' }).click();
      await page.getByRole('heading', { level: 1, name: 'Upload products from a CSV file' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the CSV template' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('products-template.csv');
      expect(readFileSync((await download.path())!, 'utf8').split('\r\n')[0]).toBe(
        'external_id,name,url,image_url,sku,gtin,mpn,brand,group',
      );

      await page.getByLabel('Choose a CSV file').setInputFiles({
        name: 'catalog.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('heading', { name: 'Preview of catalog.csv' }).waitFor();
      const summary = await page.locator('.bulk-summary').textContent();
      expect(summary).toContain('5 rows');
      expect(summary).toContain('3 ready');
      expect(summary).toContain('2 with problems');
      expect(await page.locator('.problem-list li').allTextContents()).toEqual([
        'Row 4 (CUP-2): GTIN: must be 8, 12, 13 or 14 digits with a valid check digit.',
        'Row 5: Your product id: is required.',
      ]);
      await page.getByText('Ignored columns: colour.').waitFor();
      await page.locator('.bulk-table').getByText('Tea cup, "fine"').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'products-csv-preview');

      await page.getByRole('button', { name: 'Upload 3 products' }).click();
      await page.getByRole('heading', { name: 'Result for catalog.csv' }).waitFor();
      expect(await page.locator('.notice').first().textContent()).toBe(
        '2 added, 0 updated, 1 unchanged, 2 not sent because of problems in the file.',
      );
      expect(await page.locator('.bulk-table tbody th').allTextContents()).toEqual(['4', '5']);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'products-csv-result');
    });
    const rows = await db`
      select external_id, name, gtin, group_key from plaudit.products
      where org_id = ${owner.tenant.org.id} and external_id like 'CUP-%' order by external_id`;
    expect(rows).toEqual([
      { external_id: 'CUP-1', name: 'Espresso cup; small', gtin: null, group_key: 'cups' },
      { external_id: 'CUP-3', name: 'Tea cup, "fine"', gtin: '036000291452', group_key: 'cups' },
    ]);
  });

  it('dropped past 10 MB is refused before reading, with the limit said', async () => {
    await withPage(appPath('/products/upload'), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Upload products from a CSV file' }).waitFor();
      // Made in the page, so that ten megabytes need not cross from the test to the browser.
      const dropped = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.csv', { type: 'text/csv' }));
        return dt;
      });
      await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: dropped });
      await page.getByText('The file is larger than 10 MB').waitFor();
      expect(await page.getByRole('button', { name: /^Upload \d/ }).count()).toBe(0);
    });
  });
});
