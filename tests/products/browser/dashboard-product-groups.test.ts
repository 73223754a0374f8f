/// <reference lib="dom" />
// A product of a group in the dashboard, as a shop owner reads its figures: the public pages show
// the whole group's (docs/products.md), so the catalog and the product's page name both, "This
// variant" and "Whole group", the group's equal to what the public summary answers; a product
// without a group shows its own, unlabelled. axe-core finds no violation; screenshots at 390 and
// 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { onDashboardPage, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const WIDTHS = [1280, 390];

let owner: SignedInOwner;
let small: { id: string };
const orgPath = () => `/api/v1/organizations/${owner.tenant.org.id}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;

async function addProduct(body: Record<string, unknown>) {
  const res = await api('POST', `${orgPath()}/products`, { key: owner.tenant.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

/** The text of an element with its runs of white space as one space, without the stars' glyphs (hidden from screen readers). */
const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').replace(/[★☆]/g, '').replace(/\s+/g, ' ');

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  small = await addProduct({ external_id: 'MUG-S', name: 'Stoneware mug, small', group: 'stoneware-mug' });
  await addProduct({ external_id: 'MUG-L', name: 'Stoneware mug, large', group: 'stoneware-mug' });
  await addProduct({ external_id: 'VASE', name: 'Tall vase' });
  const form = await createForm(owner.tenant, { verification_mode: 'none' });
  const tag = owner.tenant.org.id;
  await postReviews(form.id, `groups-s-${tag}`, [
    [5, 'Lovely', 'Just right for an espresso.', 'Ann A.'],
    [4, 'Good', 'A little small for tea.', 'Bo B.'],
  ], 'MUG-S');
  await postReviews(form.id, `groups-l-${tag}`, [[3, 'Heavy', 'Too heavy when full.', 'Cy C.']], 'MUG-L');
  await postReviews(form.id, `groups-v-${tag}`, [[2, 'Tippy', 'Falls over easily.', 'Di D.']], 'VASE');
}, 90_000);

describe("a grouped product's figures", () => {
  it("are the variant's and the whole group's, named, as the public summary counts the group", {
    timeout: 90_000,
  }, async () => {
    const pub = await api('GET', `/api/v1/public/products/${owner.tenant.org.slug}/MUG-S`);
    expect(pub.body).toMatchObject({ review_count: 3, average_rating: 4 });
    for (const width of WIDTHS) {
      await onDashboardPage(browser(), owner.session, appPath('/products'), async (page) => {
        const row = (name: string) => page.locator('.product-table tbody tr').filter({ hasText: name });
        await row('small').getByText('Whole group:').waitFor();
        const smallRow = await text(page, `.product-table tbody tr:has-text("small")`);
        expect(smallRow).toContain('This variant: 4.5 out of 5 (2 reviews)');
        expect(smallRow).toContain('Whole group: 4.0 out of 5 (3 reviews)');
        const largeRow = await text(page, `.product-table tbody tr:has-text("large")`);
        expect(largeRow).toContain('This variant: 3.0 out of 5 (1 review)');
        expect(largeRow).toContain('Whole group: 4.0 out of 5 (3 reviews)');
        const vaseRow = await text(page, `.product-table tbody tr:has-text("Tall vase")`);
        expect(vaseRow).toContain('2.0 out of 5 (1 review)');
        expect(vaseRow).not.toContain('This variant');
        expect(vaseRow).not.toContain('Whole group');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `product-groups-list-${width}`);
      }, { width, height: 900 });

      await onDashboardPage(browser(), owner.session, appPath(`/products/${small.id}`), async (page) => {
        await page.getByText('Whole group:').waitFor();
        const figures = await text(page, '.product-figures');
        expect(figures).toContain('This variant: 4.5 out of 5 (2 reviews)');
        expect(figures).toContain('Whole group: 4.0 out of 5 (3 reviews)');
        expect(figures).toContain('show the whole group’s figures and reviews');
        expect(await page.getByRole('link', { name: 'See the group’s products' }).getAttribute('href')).toBe(
          appPath('/products?group=stoneware-mug'),
        );
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `product-groups-page-${width}`);
      }, { width, height: 900 });
    }
  });
});
