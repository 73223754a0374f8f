/// <reference lib="dom" />
// The public profile page in a real browser (Debian's chromium): at a phone's and a desktop's
// width, with and without JavaScript; axe-core finds no accessibility violation; screenshots are
// written for people to look at ($TEST_TMP_DIR/screenshots).
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');

let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
  const form = await createForm(t, {});
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: {
      display_name: 'Fjord Coffee Roasters',
      description: 'Small-batch coffee, roasted in Bergen since 2011.',
      website: 'https://fjord.example',
    },
  });
  const reviews = [
    [
      5,
      'Best beans in town',
      'The Ethiopian roast is fruity and bright. Delivery took two days, packaging was plastic-free.',
      'Ingrid H.',
    ],
    [
      4,
      'Great coffee, slow shipping',
      'Lovely espresso blend. Shipping to Oslo took a week, but worth the wait.',
      'Lars P.',
    ],
    [5, null, 'Subscribed for a year now and never disappointed. مرحبا — and a ☕ for the team!', 'Amira K.'],
    [2, 'Not for me', 'Too dark for my taste. Customer service offered a replacement right away though.', 'Tom B.'],
  ] as const;
  const ids = await postReviews(form.id, t.org.slug, reviews);
  // The business answers the first: the page shows the reply under it.
  const replied = await api('PUT', `/api/v1/organizations/${t.org.id}/reviews/${ids[0]}/reply`, {
    key: t.keys.write,
    body: { content: 'Thank you! The next roast is already on its way.' },
  });
  expect(replied.status).toBe(200);
  // Two photos on it, a landscape and a portrait one.
  for (const [w, h, seed] of [[1200, 800, 1], [600, 900, 2]]) {
    photos.push((await upload(ids[0], await jpegWithGps(w, h, seed), { key: t.keys.write })).body);
  }
});

const photos: { url: string; thumbnail_url: string }[] = [];

describe('the public profile page in a browser', () => {
  for (const width of [375, 1280]) {
    it(`reads well at ${width} px: no overflow, no accessibility violation`, async () => {
      // bypassCSP: the page's policy forbids scripts, axe-core's included.
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      try {
        const res = await page.goto(`${base()}/p/${t.org.slug}`);
        expect(res?.status()).toBe(200);
        expect(await page.title()).toBe('Fjord Coffee Roasters reviews – rated 4.0 of 5');
        await expect(page.getByRole('heading', { level: 1 })).toBeDefined();
        expect(await page.locator('h1').textContent()).toBe('Fjord Coffee Roasters');
        expect(await page.locator('article.review').count()).toBe(4);
        expect(await page.locator('article.review .reply').textContent()).toContain(
          'Thank you! The next roast is already on its way.',
        );
        // The photos: thumbnails sized before they load, loaded lazily, each a link to the full photo.
        const images = page.locator('article.review .media img');
        expect(await images.count()).toBe(2);
        expect(
          await images.evaluateAll((els) =>
            els.map((e) => [e.getAttribute('width'), e.getAttribute('height'), e.getAttribute('loading')])
          ),
        ).toEqual([['400', '267', 'lazy'], ['267', '400', 'lazy']]);
        await images.first().scrollIntoViewIfNeeded();
        await page.waitForFunction(() =>
          [...document.querySelectorAll<HTMLImageElement>('.media img')].every((i) => i.complete && i.naturalWidth > 0)
        );
        expect(
          await page.locator('article.review .media a').evaluateAll((els) => els.map((e) => e.getAttribute('href'))),
        )
          .toEqual(photos.map((p) => p.url));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(screenshotDir(), `profile-${width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
        // A click opens the photo at full size.
        const [full] = await Promise.all([page.waitForResponse(photos[0].url), images.first().click()]);
        expect(full.status()).toBe(200);
        expect(full.headers()['content-type']).toBe('image/jpeg');
      } finally {
        await context.close();
      }
    });
  }

  it('works without JavaScript: the same reviews, and the filter is a link', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/p/${t.org.slug}`);
      expect(await page.locator('article.review').count()).toBe(4);
      await page.getByRole('link', { name: '5 ★' }).click();
      await page.waitForURL(/rating=5/);
      expect(await page.locator('article.review').count()).toBe(2);
      expect(await page.locator('[aria-label="Rated 5 out of 5"]').count()).toBe(2);
    } finally {
      await context.close();
    }
  });
});

describe('a long review on the profile page', () => {
  /** About 5,000 characters, in sentences, whose last words say where it ends. */
  const LONG = `${
    'We ordered the filter roast for the office and it has been a delight every single morning. '.repeat(54)
  }The end.`;
  let long: Tenant;

  beforeAll(async () => {
    long = await createTenant();
    const form = await createForm(long, {});
    await postReviews(form.id, long.org.slug, [[4, 'A long story', LONG, 'Nora L.'], [
      5,
      null,
      'Short and sweet.',
      'Ola',
    ]]);
  });

  for (const width of [390, 1280]) {
    it(`folds as the widget does at ${width} px: "Read more" opens the whole text, without JavaScript`, async () => {
      const context = await browser().newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/p/${long.org.slug}`);
        const article = page.locator('article.review', { hasText: 'A long story' });
        // Folded: a few lines, not the whole text.
        expect((await article.boundingBox())!.height).toBeLessThan(400);
        expect(await article.getByText('The end.').isVisible()).toBe(false);
        await article.screenshot({ path: path.join(screenshotDir(), `profile-long-review-${width}.png`) });
        await article.getByText('Read more').click();
        expect(await article.getByText(/The end\.$/).isVisible()).toBe(true);
        expect((await article.boundingBox())!.height).toBeGreaterThan(width > 600 ? 900 : 2000);
        // And back.
        await article.getByText('Show less').click();
        expect((await article.boundingBox())!.height).toBeLessThan(400);
        // A short review has nothing to fold.
        expect(await page.locator('article.review', { hasText: 'Short and sweet.' }).locator('details').count()).toBe(
          0,
        );
      } finally {
        await context.close();
      }
    });
  }

  it('keeps axe-core clean, folded and open', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/p/${long.org.slug}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByText('Read more').click();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
