/// <reference lib="dom" />
// The widget screen gives every snippet a shop needs, as a shop owner finds them: the business's
// widget, and for a product picked by typing its name (the catalog's product picker) the product
// widget for its page and the stars line for category pages, each filled with the product's own
// id. The snippets copied work: pasted alone into a page, the product widget and the stars show
// that product's figures. axe-core finds no violation; screenshots at 390 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { onDashboardPage, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();

let owner: SignedInOwner;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  for (const body of [{ external_id: 'MUG-BLUE', name: 'Blue mug' }, { external_id: 'VASE-1', name: 'Tall vase' }]) {
    const res = await api('POST', `/api/v1/organizations/${owner.tenant.org.id}/products`, {
      key: owner.tenant.keys.write,
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const form = await createForm(owner.tenant, { verification_mode: 'none' });
  await postReviews(form.id, `snippets-${owner.tenant.org.id}`, [
    [4, 'Holds the heat', 'Keeps my tea warm.', 'Ann A.'],
    [5, 'Pretty', 'The blue is deep and even.', 'Bo B.'],
  ], 'MUG-BLUE');
}, 90_000);

/** Picks a product in the snippets' picker by typing part of its name. */
async function pickProduct(page: Page, typed: string, name: string) {
  const picker = page.getByRole('combobox', { name: 'Product' });
  await picker.pressSequentially(typed);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await page.getByLabel('Product page snippet').waitFor();
}

/** The widget's shadow text once drawn, on a page holding only the snippet (as a shop's page would). */
async function drawn(snippet: string, selector: string): Promise<string> {
  const page = await browser().newPage();
  try {
    await page.setContent(`<!doctype html><html lang="en"><body>${snippet}</body></html>`);
    await page.waitForFunction(
      // The drawn view's text, not the shadow root's (its style sheet holds figures like 1.5 too).
      (sel) => Boolean(document.querySelector(sel)?.shadowRoot?.querySelector('.root')?.textContent?.match(/\d\.\d/)),
      selector,
    );
    return await page.locator(selector).evaluate((el) => el.shadowRoot!.innerHTML);
  } finally {
    await page.close();
  }
}

describe('the widget screen', () => {
  it("gives a picked product's widget and stars snippets, filled with its id, and both work", {
    timeout: 90_000,
  }, async () => {
    let productSnippet = '';
    let starsSnippet = '';
    for (const width of [1280, 390]) {
      await onDashboardPage(browser(), owner.session, appPath('/widget'), async (page) => {
        await page.getByLabel('Widget snippet').waitFor();
        expect(await page.getByLabel('Product page snippet').count()).toBe(0);
        await pickProduct(page, 'Blue', 'Blue mug');
        productSnippet = await page.getByLabel('Product page snippet').inputValue();
        starsSnippet = await page.getByLabel('Stars snippet').inputValue();
        expect(productSnippet).toContain(`data-slug="${owner.tenant.org.slug}" data-product="MUG-BLUE"`);
        expect(productSnippet).toContain(`/p/${owner.tenant.org.slug}/products/MUG-BLUE">Reviews of Blue mug</a>`);
        expect(starsSnippet).toContain('data-product="MUG-BLUE" data-mode="stars"');
        // The business's snippet stays as the API answers it.
        const embed = await api('GET', `/api/v1/public/embed/${owner.tenant.org.slug}`);
        expect(await page.getByLabel('Widget snippet').inputValue()).toBe(embed.body.snippet);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('heading', { name: 'A product’s reviews and stars' }).scrollIntoViewIfNeeded();
        await shot(page, `widget-snippets-${width}`);

        // Another product: the snippets follow the pick.
        await page.getByRole('button', { name: /Clear/ }).click();
        await pickProduct(page, 'vase', 'Tall vase');
        expect(await page.getByLabel('Stars snippet').inputValue()).toContain('data-product="VASE-1"');
      }, { width, height: 900 });
    }

    // Pasted into a page, each shows the product's figures: two reviews, 4.5.
    expect(await drawn(productSnippet, '[data-product="MUG-BLUE"]')).toContain('4.5');
    const stars = await drawn(starsSnippet, '[data-mode="stars"]');
    expect(stars).toContain('Rated 4.5 out of 5, 2 reviews');
  });
});
