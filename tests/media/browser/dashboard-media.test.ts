/// <reference lib="dom" />
// A review's photos and videos in the dashboard, in a real browser: the inbox's "With photos"
// filter, the review's page showing each item (a thumbnail that opens large), hiding a photo with a
// reason (marked hidden; the API says so and its public file answers 404), and the public page's
// setting that holds new photos until shown. axe-core finds no violation; screenshots at 375 and
// 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { fetchFile, jpegWithGps, mp4, upload } from '../../helpers/media.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let ids: Record<'mug' | 'plate', string>;
let photo: { id: string; url: string; thumbnail_url: string };
const orgPath = () => `/api/v1/organizations/${owner.tenant.org.id}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;
const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, fn, viewport);

beforeAll(async () => {
  owner = await signedInOwner('Maja Media');
  const form = await createForm(owner.tenant, { verification_mode: 'none' });
  const [mug, plate] = await postReviews(form.id, owner.tenant.org.slug, [
    [5, 'Lovely mug', 'The glaze is deep blue, just like the pictures.', 'Mo M.'],
    [4, 'Plain plate', 'A good plate, nothing more to say.', 'Pia P.'],
  ]);
  ids = { mug, plate };
  const key = owner.tenant.keys.write;
  const sent = await upload(mug, await jpegWithGps(1600, 1200, 3), { key });
  expect(sent.status).toBe(201);
  photo = sent.body;
  expect((await upload(mug, mp4(2), { key, name: 'clip.mp4', type: 'video/mp4' })).status).toBe(201);
});

describe('photos and videos in the dashboard', () => {
  it('the inbox shows only the reviews with photos under "With photos", through the URL', async () => {
    await withPage(appPath('/reviews'), async (page) => {
      const rows = page.locator('.review-row');
      await expect.poll(() => rows.count()).toBe(2);
      await page.getByLabel('Photos and videos').selectOption('true');
      await page.waitForURL(/has_media=true/);
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getByRole('link').textContent()).toBe('Lovely mug');
    });
  });

  it("the review's page shows them; hiding a photo with a reason marks it, and its public file is gone", async () => {
    await withPage(appPath(`/reviews/${ids.mug}`), async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Photos and videos' }).waitFor();
      const thumb = page.getByRole('img', { name: 'Photo 1, open large in a new tab' });
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
      expect(await page.getByRole('link', { name: 'Photo 1, open large in a new tab' }).getAttribute('href')).toBe(
        photo.url,
      );
      expect(await page.getByRole('link', { name: 'Play the video in a new tab' }).getAttribute('target')).toBe(
        '_blank',
      );
      await shot(page, 'review-media-1280');

      // A reason is required: the browser keeps the form until one is given.
      await page.getByRole('button', { name: 'Hide photo 1' }).click();
      const why = page.getByLabel('Why hide photo 1');
      expect(await why.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      await why.fill('Shows a customer’s face');
      await page.getByRole('button', { name: 'Hide photo 1' }).click();
      await page.getByText('Photo 1 is hidden from the public.').waitFor();
      const item = page.locator('.media-item').first();
      expect(await item.locator('.badge').textContent()).toBe('Hidden');
      expect(await page.getByRole('img', { name: 'Photo 1, open large in a new tab' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Show photo 1' }).waitFor();
      await expect.poll(() => page.locator('.trail').textContent()).toContain('Photo or video hidden');
      // The trail names the item as the page does, not by its id.
      expect(await page.locator('.trail-reason').first().textContent()).toBe('Photo 1: Shows a customer’s face');

      const review = await api('GET', `${orgPath()}/reviews/${ids.mug}`, { key: owner.tenant.keys.read });
      expect(review.body.media.map((m: { is_hidden: boolean }) => m.is_hidden)).toEqual([true, false]);
      expect((await fetchFile(photo.url)).status).toBe(404);
      expect((await fetchFile(photo.thumbnail_url)).status).toBe(404);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it('looks right at phone and desktop widths, with no accessibility violation', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(appPath(`/reviews/${ids.mug}`), async (page) => {
        await page.getByRole('heading', { level: 2, name: 'Photos and videos' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `review-media-hidden-${viewport.width}`);
      }, viewport);
    }
  });

  it('the public page settings hold new photos until shown, when chosen', async () => {
    await withPage(appPath('/widget'), async (page) => {
      const manual = page.getByRole('radio', { name: /Hold them until I show them/ });
      await manual.waitFor();
      expect(await page.getByRole('radio', { name: /Show them at once/ }).isChecked()).toBe(true);
      await manual.check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText(/^Saved\./).waitFor();
      const settings = await api('GET', `${orgPath()}/public-profile`, { key: owner.tenant.keys.read });
      expect(settings.body.media_moderation).toBe('manual');
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'widget-media-1280');
    });
    const later = await upload(ids.plate, await jpegWithGps(300, 200, 5), { key: owner.tenant.keys.write });
    expect(later.body.is_hidden).toBe(true);
    await withPage(appPath(`/reviews/${ids.plate}`), async (page) => {
      await page.getByRole('button', { name: 'Show photo 1' }).waitFor();
    });
  });
});
