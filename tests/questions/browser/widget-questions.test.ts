/// <reference lib="dom" />
// The widget's product mode in chromium, on a shop's page of another origin: the Questions tab
// shows the product's questions with their answers (text as text, never an address), and its Ask
// form sends a question that waits for its e-mailed confirmation; axe-core clean, at 375 and
// 1,280 px. Screenshots go to $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';

const browser = useBrowser();
const site = useHostSite();
let t: Tenant;
let script: string;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [{ external_id: 'MUG', name: 'Stoneware mug' }]);
  const [mug] = await db`select id from plaudit.products where org_id = ${t.org.id} and external_id = 'MUG'`;
  await db`
    insert into plaudit.questions (org_id, product_id, question, asker_name, asker_email, status,
                                   confirmation_token_hash, confirmed_at)
    values (${t.org.id}, ${mug.id}, 'Is it dishwasher safe? <b>please</b>', 'Nora', 'nora@example.com', 'published',
            sha256(convert_to(${t.org.id}::text || 'w', 'UTF8')), now())`;
  await db`
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content)
    select org_id, id, 'business', 'Fjord', 'Yes, up to 60 °C.' from plaudit.questions where org_id = ${t.org.id}`;
});

describe("the widget's Questions tab", () => {
  for (const width of [375, 1280]) {
    it(`shows the questions and asks a new one at ${width} px`, { timeout: 120_000 }, async () => {
      const url = site.page(
        `/mug-${width}`,
        hostPage(
          `<div data-plaudit-widget data-slug="${t.org.slug}" data-product="MUG" style="height:700px"><a href="/r">Reviews</a></div><script async src="${script}"></script>`,
        ),
      );
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        const widget = page.locator('[data-product]');
        await widget.getByRole('tab', { name: 'Questions' }).click();
        const panel = widget.getByRole('tabpanel', { name: 'Questions' });
        await expect.poll(() => panel.locator('li').count()).toBe(1);
        expect(await panel.locator('li .title').textContent()).toBe('Is it dishwasher safe? <b>please</b>');
        expect(await panel.locator('li').textContent()).toContain('Yes, up to 60 °C.');
        expect(await panel.locator('li').textContent()).toContain('The business');
        expect(await panel.textContent()).not.toContain('@example.com');
        expect(await widget.getByRole('tab', { name: 'Questions' }).getAttribute('aria-selected')).toBe('true');

        const email = `ask-${width}-${t.org.slug}@example.com`;
        await panel.getByLabel('Your question').fill('Does it come in blue as well?');
        await panel.getByLabel('Your name').fill('Pia');
        await panel.getByLabel('Your e-mail address').fill(email);
        await panel.getByRole('button', { name: 'Ask' }).click();
        await expect.poll(() => panel.getByRole('status').textContent()).toContain('Open the link we e-mailed you');
        const [q] = await db`select status, product_id is not null as about_product from plaudit.questions
                              where asker_email = ${email}`;
        expect(q).toEqual({ status: 'pending', about_product: true });
        await page.screenshot({ path: path.join(screenshotDir(), `widget-questions-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);

        await widget.getByRole('tab', { name: 'Reviews' }).click();
        expect(await panel.count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
