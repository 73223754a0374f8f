/// <reference lib="dom" />
// A product page's Questions section in chromium, without JavaScript: the published questions with
// their answers (text as text, never an address), and the Ask form, whose question waits for its
// e-mailed confirmation (asked without JavaScript); at a phone's and a desktop's width, no overflow, axe-core clean.
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';

const browser = useBrowser();
let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
  await syncProducts(t, [{ external_id: 'MUG', name: 'Stoneware mug' }]);
  const [mug] = await db`select id from plaudit.products where org_id = ${t.org.id} and external_id = 'MUG'`;
  await db`
    insert into plaudit.questions (org_id, product_id, question, asker_name, asker_email, status,
                                   confirmation_token_hash, confirmed_at, created_at)
    values (${t.org.id}, ${mug.id}, 'Is it dishwasher safe? <b>asking</b>', 'Nora', 'nora@example.com', 'published',
            sha256(convert_to(${t.org.id}::text || '1', 'UTF8')), now(), now() - interval '2 days'),
           (${t.org.id}, ${mug.id}, 'How big is the handle for large hands?', 'Olaf', 'olaf@example.com', 'published',
            sha256(convert_to(${t.org.id}::text || '2', 'UTF8')), now(), now() - interval '1 day')`;
  await db`
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content)
    select org_id, id, 'business', ${t.org.name}, 'Yes, up to 60 °C. The glaze stays as it is.'
      from plaudit.questions where org_id = ${t.org.id} and asker_name = 'Nora'`;
});

async function open(width: number, javaScriptEnabled = true) {
  const context = await browser().newContext({
    viewport: { width, height: 900 },
    bypassCSP: true,
    javaScriptEnabled,
  });
  const page = await context.newPage();
  const res = await page.goto(`${inject('apiUrl')}/p/${t.org.slug}/products/MUG`);
  expect(res?.status()).toBe(200);
  return { page, close: () => context.close() };
}

describe("a product page's questions", () => {
  for (const width of [375, 1280]) {
    it(
      `shows questions and answers at ${width} px, without overflow or accessibility violation`,
      { timeout: 120_000 },
      async () => {
        const { page, close } = await open(width);
        try {
          const section = page.locator('section.questions');
          expect(await section.getAttribute('aria-labelledby', { timeout: 5000 })).toBe('questions-heading');
          expect(await section.locator('article h3').allTextContents()).toEqual([
            'Is it dishwasher safe? <b>asking</b>',
            'How big is the handle for large hands?',
          ]);
          expect(await section.locator('b').count()).toBe(0);
          expect(await section.textContent()).toContain('Yes, up to 60 °C.');
          expect(await section.textContent()).toContain('Not answered yet.');
          expect(await page.content()).not.toContain('@example.com');
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await page.screenshot({
            path: path.join(screenshotDir(), `product-page-questions-${width}.png`),
            fullPage: true,
          });
          expect(await axeViolations(page)).toEqual([]);
        } finally {
          await close();
        }
      },
    );
  }

  it(
    'asks through the form without JavaScript; the question waits for its confirmation',
    { timeout: 120_000 },
    async () => {
      const { page, close } = await open(1280, false);
      try {
        await page.getByLabel('Your question').fill('Does it come in blue as well?');
        await page.getByLabel('Your name').fill('Pia');
        await page.getByLabel('Your e-mail address').fill(`pia-${t.org.slug}@example.com`);
        await page.getByRole('button', { name: 'Ask' }).click();
        await page.waitForLoadState();
        expect(await page.locator('h1').textContent()).toBe('Check your e-mail');
        await page.screenshot({ path: path.join(screenshotDir(), 'product-page-questions-asked.png') });
        const [q] = await db`
        select status, asker_name from plaudit.questions where asker_email = ${`pia-${t.org.slug}@example.com`}`;
        expect(q).toEqual({ status: 'pending', asker_name: 'Pia' });
        const pub = await api('GET', `/api/v1/public/products/${t.org.slug}/MUG/questions`);
        expect(pub.body.data.map((x: any) => x.question)).not.toContain('Does it come in blue as well?');
      } finally {
        await close();
      }
    },
  );
});
