/// <reference lib="dom" />
// Photos on a review sent from the hosted form, in a real browser: the thank-you page's section
// (run by its script under the page's real Content-Security-Policy) previews a 6-megapixel photo,
// makes it smaller before sending (the bytes stored are not the ones chosen), shows its progress to
// the end, and says in plain words why a file that is no photo was refused; the review then has the
// photo through the API. Without JavaScript the page says that adding photos needs it. axe-core
// finds no violation (with JavaScript); screenshots at 375 and 1,280 px.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { jpegWithGps } from '../../helpers/media.ts';
import { createForm } from '../../helpers/review-requests.ts';

const browser = useBrowser();

let t: Tenant;
let formId: string;

beforeAll(async () => {
  t = await createTenant();
  formId = (await createForm(t, { verification_mode: 'none' })).id;
});

async function sendReview(page: Page, text: string) {
  await page.goto(`${inject('apiUrl')}/forms/${formId}`);
  await page.getByLabel('5 stars').check();
  await page.getByLabel('Your review').fill(text);
  await page.getByLabel('Your name').fill('Paula');
  await page.getByLabel('Your e-mail address').fill(`paula-${t.org.slug}@example.com`);
  await page.getByRole('button', { name: 'Send my review' }).click();
  await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
}

async function reviewWith(text: string) {
  const res = await api('GET', `/api/v1/organizations/${t.org.id}/reviews?q=${encodeURIComponent(text)}`, {
    key: t.keys.read,
  });
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

describe('photos on a review sent from the hosted form', () => {
  it('are sent from the thank-you page, smaller, with a preview, progress and plain refusals', {
    timeout: 90_000,
  }, async () => {
    const photo = await jpegWithGps(3000, 2000, 7);
    const page = await browser().newPage({ viewport: { width: 375, height: 812 } });
    const sent: number[] = [];
    page.on('request', (r) => r.url().endsWith('/media') && sent.push(r.postDataBuffer()?.length ?? 0));
    try {
      await sendReview(page, 'The teapot pours without a drip.');
      // The token stays in the page: never in its address.
      expect(page.url()).not.toContain('mu_');
      const section = page.getByRole('region', { name: 'Add photos or videos' });
      await section.waitFor();
      expect(await page.getByText('needs JavaScript').isVisible()).toBe(false);

      await page.getByLabel('Choose photos or videos').setInputFiles([
        { name: 'teapot.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) },
        { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('these are not the pixels you want') },
      ]);
      await page.getByText('1 of 2 added; see why below.').waitFor();
      const items = section.locator('li');
      expect(await items.nth(0).textContent()).toContain('Added.');
      expect(await items.nth(0).locator('progress').evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
      const preview = page.getByRole('img', { name: 'Preview of teapot.jpg' });
      expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2048);
      // A file the browser cannot show has no preview, rather than a broken one.
      expect(await items.nth(1).locator('img').count()).toBe(0);
      expect(await items.nth(1).locator('.error').textContent()).toBe(
        'Not added: Must be a JPEG, PNG or WebP image or an MP4 or WebM video (judged by its content, not its name or type).',
      );

      const review = await reviewWith('teapot pours');
      expect(review.media).toHaveLength(1);
      expect(review.media[0]).toMatchObject({ type: 'image', width: 2048, height: 1365, is_hidden: false });
      // What reached the API is the browser's smaller copy, not the file chosen.
      const [row] = await db`select sha256, bytes from plaudit.review_media where id = ${review.media[0].id}`;
      expect(Buffer.from(row.sha256).toString('hex')).not.toBe(createHash('sha256').update(photo).digest('hex'));
      expect(sent[0]).toBeLessThan(photo.length);

      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(screenshotDir(), `hosted-form-media-${width}.png`), fullPage: true });
      }
    } finally {
      await page.close();
    }
  });

  it("are sent from a review request's thank-you page too", { timeout: 60_000 }, async () => {
    const created = await api('POST', `/api/v1/organizations/${t.org.id}/review-requests`, {
      key: t.keys.write,
      body: { email: `rq-${t.org.slug}@example.com`, name: 'Rui', form_id: formId },
    });
    expect(created.status).toBe(201);
    const [{ token }] = await db`select plaudit.review_request_token(${created.body.id}) as token`;
    const page = await browser().newPage({ viewport: { width: 375, height: 812 } });
    try {
      await page.goto(`${inject('apiUrl')}/r/${token}`);
      await page.getByLabel('4 stars').check();
      await page.getByLabel('Your review').fill('Asked by mail, answered with a photo.');
      await page.getByRole('button', { name: 'Send my review' }).click();
      await page.getByRole('heading', { name: 'Thank you for your review' }).waitFor();
      await page.getByLabel('Choose photos or videos').setInputFiles({
        name: 'cup.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from(await jpegWithGps(320, 240, 9)),
      });
      await page.getByText('Thank you: 1 file added.').waitFor();
      const review = await reviewWith('answered with a photo');
      expect(review.media).toMatchObject([{ type: 'image', width: 320, height: 240 }]);
    } finally {
      await page.close();
    }
  });

  it('without JavaScript, the thank-you page says adding photos needs it', { timeout: 60_000 }, async () => {
    const context = await browser().newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    try {
      await sendReview(page, 'Lovely cups, no script here.');
      await page.getByText('Adding photos or videos to your review needs JavaScript in this browser.').waitFor();
      expect(await page.getByRole('region', { name: 'Add photos or videos' }).count()).toBe(0);
      // (axe-core cannot run where scripts are off; the page is the one checked above, less the section.)
      expect((await reviewWith('no script here')).media).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
