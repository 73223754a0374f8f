/// <reference lib="dom" />
// The hosted pages in a real browser (Debian's chromium, driven by playwright-core): submit a
// review, see the validation errors (summary, inline, focus on the first), submit with the
// keyboard only from a review-request landing page, and without JavaScript; the thank-you page's
// way back to the shop's website, or to the business's profile page.
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db } from '../../helpers/db.ts';
import { hostPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';

const browser = useBrowser();
const shop = useHostSite();

const base = () => inject('apiUrl');

describe('hosted pages in a browser', () => {
  it('the form page shows errors inline, focuses the first, and then takes the review', async () => {
    const t = await createTenant();
    const form = await createForm(t, {
      custom_fields: [{ key: 'product', label: 'Product', type: 'select', required: true, options: ['Chair', 'Desk'] }],
    });
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${base()}/forms/${form.id}`);
      expect(await page.title()).toBe(`Review ${t.org.name}`);
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
      // Nothing overflows a phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await page.getByLabel('Your e-mail address').fill('not an address');
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.waitForURL(`${base()}/forms/${form.id}`);
      expect(await page.title()).toBe(`Error: Review ${t.org.name}`);
      const summary = page.getByRole('alert');
      await expect.poll(() => summary.textContent()).toContain('Please correct 5 things');
      // The first invalid field (the rating) has the focus.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-rating');
      const email = page.getByLabel('Your e-mail address');
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      const described = (await email.getAttribute('aria-describedby'))!.split(' ');
      const texts = await Promise.all(described.map((id) => page.locator(`#${id}`).textContent()));
      expect(texts).toContain('Enter an e-mail address such as name@example.com.');
      expect(await email.inputValue()).toBe('not an address');
      // The summary links to the fields.
      await summary.getByRole('link', { name: /Your review/ }).click();
      expect(await page.evaluate(() => location.hash)).toBe('#f-content');

      await page.getByLabel('4 stars').check();
      await page.getByLabel('Your review').fill('Comfortable chair, quick delivery.');
      await page.getByLabel('Product').selectOption('Chair');
      await page.getByLabel('Your name').fill('Rita');
      await email.fill('rita@example.com');
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
      const [review] = await db`select rating, content, custom_fields from plaudit.reviews where form_id = ${form.id}`;
      expect(review).toMatchObject({
        rating: 4,
        content: 'Comfortable chair, quick delivery.',
        custom_fields: { product: 'Chair' },
      });
    } finally {
      await page.close();
    }
  });

  it('keyboard only: a review from the landing page completes the request', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const created = await api('POST', `/api/v1/organizations/${t.org.id}/review-requests`, {
      key: t.keys.write,
      body: { email: `kb-${t.org.slug}@example.com`, name: 'Kim', form_id: form.id },
    });
    expect(created.status).toBe(201);
    const [{ token }] = await db`select plaudit.review_request_token(${created.body.id}) as token`;
    const page = await browser().newPage();
    try {
      await page.goto(`${base()}/t/c/${token}?rating=3`);
      expect(page.url()).toBe(`${base()}/r/${token}?c=1&rating=3`);
      expect(await page.getByLabel('Your name').inputValue()).toBe('Kim');
      expect(await page.getByLabel('Your e-mail address').inputValue()).toBe(`kb-${t.org.slug}@example.com`);
      expect(await page.getByLabel('3 stars').isChecked()).toBe(true);

      // Tab into the rating group (on the checked star), move to 5 stars with the arrow keys.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('3');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByLabel('5 stars').isChecked()).toBe(true);
      await page.keyboard.press('Tab'); // title
      await page.keyboard.type('Smooth');
      await page.keyboard.press('Tab'); // review
      await page.keyboard.type('Everything went smoothly.');
      await page.keyboard.press('Tab'); // name (prefilled)
      await page.keyboard.press('Tab'); // e-mail (prefilled)
      await page.keyboard.press('Tab'); // the button (the bot trap is not focusable)
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send my review');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
      // The thank-you heading takes the focus, so screen readers announce it.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

      const r = await api('GET', `/api/v1/organizations/${t.org.id}/review-requests/${created.body.id}`, {
        key: t.keys.read,
      });
      expect(r.body).toMatchObject({ status: 'completed', review_id: expect.any(String) });
      const [review] = await db`select rating, title from plaudit.reviews where id = ${r.body.review_id}`;
      expect(review).toMatchObject({ rating: 5, title: 'Smooth' });
    } finally {
      await page.close();
    }
  });

  it('works without JavaScript', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/forms/${form.id}`);
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('2 stars').check();
      await page.getByLabel('Your review').fill('Late, but friendly support.');
      await page.getByLabel('Your name').fill('Noel');
      await page.getByLabel('Your e-mail address').fill('noel@example.com');
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
      const [{ n }] =
        await db`select count(*)::int as n from plaudit.reviews where form_id = ${form.id} and rating = 2`;
      expect(n).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("the thank-you page leads back to the shop's website, else to the profile page", { timeout: 60_000 }, async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const website = shop.page('/?from=reviews', hostPage('<p>Welcome back.</p>'));
    await db`update plaudit.organizations set website = ${website} where id = ${t.org.id}`;
    const context = await browser().newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const review = async (email: string) => {
      await page.goto(`${base()}/forms/${form.id}`);
      await page.getByLabel('5 stars').check();
      await page.getByLabel('Your review').fill('Arrived early, well packed.');
      await page.getByLabel('Your name').fill('Lou');
      await page.getByLabel('Your e-mail address').fill(email);
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
    };
    try {
      await review('lou@example.com');
      const back = page.getByRole('link', { name: `Back to ${t.org.name}` });
      expect(await back.getAttribute('rel')).toBe('noopener');
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(screenshotDir(), `hosted-thank-you-${width}.png`), fullPage: true });
      }
      await back.click();
      await page.waitForURL(website);
      await page.getByRole('heading', { name: 'Our shop' }).waitFor();

      // Without a website, the profile page (enabled unless switched off).
      await db`update plaudit.organizations set website = null where id = ${t.org.id}`;
      await review('lou.again@example.com');
      await page.getByRole('link', { name: `See ${t.org.name}'s reviews` }).click();
      await page.waitForURL(`${base()}/p/${t.org.slug}`);
      expect(await page.title()).toContain(t.org.name);
    } finally {
      await context.close();
    }
  });
});
