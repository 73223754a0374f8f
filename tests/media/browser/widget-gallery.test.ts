/// <reference lib="dom" />
// A review's photos in the widget, in chromium against the real API, database and stored files:
// thumbnails sized by the item's width and height before they load (the page does not move, CLS
// 0), each opening large in a modal dialog by click and by keyboard, focus inside and kept there
// by Tab, the arrows moving between the review's photos, Escape closing it and giving focus back
// to that photo's thumbnail; a video as a link; "With photos" showing only reviews with media.
// axe-core finds no violation; screenshots at 375 and 1,280 px go to $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { jpegWithGps, mp4, upload } from '../../helpers/media.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();

type Item = { url: string; thumbnail_url: string; width: number; height: number };
let t: Tenant;
let script: string;
const photos: Item[] = [];
let video: string;

beforeAll(async () => {
  t = await createTenant();
  script = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.script_url;
  await syncProducts(t, [{ external_id: 'LAMP', name: 'Desk lamp' }]);
  const form = await createForm(t, {});
  const [plain, two, one] = await postReviews(form.id, t.org.slug, [
    [3, null, 'No photos with this one.', 'Ann'],
    [5, 'In the evening', 'Two photos and a clip.', 'Bo'],
    [4, null, 'One photo.', 'Cy'],
  ], 'LAMP');
  expect(plain).toBeTruthy();
  for (const [review, w, h, seed] of [[two, 640, 480, 1], [two, 300, 500, 2], [one, 500, 500, 3]] as const) {
    const res = await upload(review, await jpegWithGps(w, h, seed), { key: t.keys.write });
    expect(res.status).toBe(201);
    photos.push(res.body);
  }
  // Reviews of the business, the newest with two photos, for the business's carousel.
  await postReviews(
    form.id,
    `${t.org.slug}-more`,
    [1, 2, 3, 4].map((i) => [4, null, `Shop ${i}.`, `Ed ${i}`] as const),
  );
  const [shop] = await postReviews(form.id, `${t.org.slug}-shop`, [[5, null, 'The shop itself.', 'Di']]);
  for (const seed of [4, 5]) {
    expect((await upload(shop, await jpegWithGps(320, 240, seed), { key: t.keys.write })).status).toBe(201);
  }
  const clip = await upload(two, mp4(), { key: t.keys.write, type: 'video/mp4', name: 'clip.mp4' });
  expect(clip.status).toBe(201);
  video = clip.body.url;
});

const pageWithWidget = () =>
  site.page(
    '/lamp',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lamp</title></head><body>
<script>
  window.__shift = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
</script>
<h1>Desk lamp</h1><div data-plaudit-widget data-slug="${t.org.slug}" data-product="LAMP" data-jsonld="off"
 style="display:block;height:640px"><a href="/reviews">Reviews</a></div><p>Text below the widget.</p>
<script async src="${script}"></script></body></html>`,
  );

/** Inside the widget's shadow root: the dialog of Bo's review (the second with photos) and where focus is. */
const state = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-product]')!.shadowRoot!;
    const dialog = root.querySelectorAll('dialog')[1];
    const active = root.activeElement;
    return {
      open: dialog.open,
      label: dialog.getAttribute('aria-label'),
      modal: dialog.getAttribute('aria-modal'),
      src: dialog.querySelector('img')!.getAttribute('src'),
      focusInside: !!active && dialog.contains(active),
      focusedThumb: [...root.querySelectorAll('.md button')].indexOf(active as Element),
    };
  });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir(), name) });

describe("a review's photos in the widget", () => {
  it('shows sized thumbnails without moving the page, opens them large by click and keyboard, keeps focus', async () => {
    const url = pageWithWidget();
    for (const width of [375, 1280]) {
      const { page, errors, close } = await openPage(browser(), url, width);
      try {
        await page.waitForFunction(() =>
          [...(document.querySelector('[data-product]')?.shadowRoot?.querySelectorAll('.md img') ?? [])]
            .filter((i) => (i as HTMLImageElement).complete).length === 3
        );
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
        // Newest first: Cy's photo, then Bo's two (in upload order); each sized by its item.
        const thumbs = await page.evaluate(() =>
          [...document.querySelector('[data-product]')!.shadowRoot!.querySelectorAll<HTMLImageElement>('.md img')]
            .map((i) => ({
              src: i.getAttribute('src'),
              width: i.getAttribute('width'),
              height: i.getAttribute('height'),
              loading: i.loading,
              alt: i.alt,
              box: [i.getBoundingClientRect().width, i.getBoundingClientRect().height],
            }))
        );
        const order = [photos[2], photos[0], photos[1]];
        expect(thumbs.map((x) => [x.src, Number(x.width), Number(x.height), x.loading])).toEqual(
          order.map((p) => [p.thumbnail_url, p.width, p.height, 'lazy']),
        );
        expect(thumbs.map((x) => x.alt)).toEqual(['Photo 1 of 1', 'Photo 1 of 2', 'Photo 2 of 2']);
        for (const [i, x] of thumbs.entries()) {
          expect(x.box[1]).toBe(64);
          expect(Math.abs(x.box[0] - (64 * order[i].width) / order[i].height)).toBeLessThan(1);
        }
        const widget = page.locator('[data-product]');
        expect(await widget.getByRole('link', { name: 'Video' }).getAttribute('href')).toBe(video);
        await shot(page, `widget-gallery-${width}.png`);
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);

        // A click opens Bo's first photo large, in a labelled modal dialog with focus inside.
        await widget.getByRole('button', { name: 'Photo 1 of 2' }).click();
        const now = await state(page);
        expect(now).toMatchObject({ open: true, label: 'Photo 1 of 2', modal: 'true', src: photos[0].url });
        expect(now.focusInside).toBe(true);
        expect(await widget.getByRole('dialog', { name: 'Photo 1 of 2' }).count()).toBe(1);
        await page.waitForFunction(() =>
          (document.querySelector('[data-product]')!.shadowRoot!.querySelector('dialog[open] img') as HTMLImageElement)
            .complete
        );
        await shot(page, `widget-gallery-dialog-${width}.png`);
        expect(await axeViolations(page, ['[data-product]'])).toEqual([]);
        // Tab and Shift+Tab never leave it (three buttons: previous, next, close).
        for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
          await page.keyboard.press(key);
          expect((await state(page)).focusInside).toBe(true);
        }
        // The arrows move between the review's photos.
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => state(page)).toMatchObject({ label: 'Photo 2 of 2', src: photos[1].url });
        await page.keyboard.press('ArrowRight');
        await expect.poll(async () => (await state(page)).src).toBe(photos[0].url);
        await page.keyboard.press('ArrowLeft');
        await expect.poll(async () => (await state(page)).src).toBe(photos[1].url);
        // Escape closes it and gives focus back to the shown photo's thumbnail.
        await page.keyboard.press('Escape');
        await expect.poll(() => state(page)).toMatchObject({ open: false, focusedThumb: 2 });

        // By keyboard alone: Enter on the focused thumbnail opens it, the close button closes it,
        // and Space opens it again.
        await page.keyboard.press('Enter');
        await expect.poll(() => state(page)).toMatchObject({ open: true, focusInside: true, src: photos[1].url });
        await widget.getByRole('button', { name: 'Close' }).press('Enter');
        await expect.poll(() => state(page)).toMatchObject({ open: false, focusedThumb: 2 });
        await page.keyboard.press('Space');
        await expect.poll(() => state(page)).toMatchObject({ open: true, src: photos[1].url });
        await page.keyboard.press('Escape');
        await expect.poll(() => state(page)).toMatchObject({ open: false, focusedThumb: 2 });
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it('shows only the reviews with photos or videos under "With photos"', async () => {
    const { page, errors, close } = await openPage(browser(), pageWithWidget(), 1280);
    try {
      const widget = page.locator('[data-product]');
      const reviews = () => widget.locator('li.r').count();
      await expect.poll(reviews).toBe(3);
      const filter = widget.getByRole('button', { name: 'With photos' });
      expect(await filter.getAttribute('aria-pressed')).toBe('false');
      await filter.click();
      await expect.poll(reviews).toBe(2);
      expect(await widget.locator('li.r:has(.md)').count()).toBe(2);
      expect(await widget.getByText('No photos with this one.').count()).toBe(0);
      expect(await filter.getAttribute('aria-pressed')).toBe('true');
      await filter.click();
      await expect.poll(reviews).toBe(3);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("opens the business's photos from its carousel's whole review, whose arrow keys stay out of the dialog", async () => {
    const url = site.page(
      '/shop',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<div data-plaudit-widget data-slug="${t.org.slug}" data-layout="carousel" style="display:block;height:320px"></div>
<script async src="${script}"></script></body></html>`,
    );
    const { page, errors, close } = await openPage(browser(), url, 1280);
    try {
      const widget = page.locator('[data-plaudit-widget]');
      // A carousel's card shows the lines that fit; its photos are in the whole review, behind "Read more".
      await widget.getByRole('button', { name: 'Read more' }).first().click();
      await widget.getByRole('button', { name: 'Photo 1 of 2' }).click();
      const dialog = widget.getByRole('dialog', { name: 'Photo 1 of 2' });
      await expect.poll(() => dialog.count()).toBe(1);
      const scrolled = () =>
        page.evaluate(() =>
          document.querySelector('[data-plaudit-widget]')!.shadowRoot!.querySelector('.items')!.scrollLeft
        );
      const before = await scrolled();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => widget.getByRole('dialog', { name: 'Photo 2 of 2' }).count()).toBe(1);
      expect(await scrolled()).toBe(before);
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
