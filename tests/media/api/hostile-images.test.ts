// Images made to cost the API more than they are worth: refused from their header before anything
// decodes them, and the decoding of the rest done off the API's event loop, within a deadline.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DECODE_BUDGET_BYTES, MAX_JPEG_SCANS } from '../../../functions/_shared/core/media/limits.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { blankPng, jpegWithGps, jpegWithScans, upload } from '../../helpers/media.ts';
import { freshIp, ownApiServer, reviewBody } from '../../helpers/reviews.ts';

let t: Tenant;
let formId: string;
const MEDIA_DIR = path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'media');
// A server whose images must be made within a millisecond: none is.
const hurried = ownApiServer({ MEDIA_DECODE_TIMEOUT_MS: '1' });
// A server that makes one image at a time and lets none wait.
const single = ownApiServer({ MEDIA_DECODES_AT_ONCE: '1', MEDIA_DECODE_QUEUE: '0' });

beforeAll(async () => {
  t = await createTenant();
  const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Photos' },
  });
  formId = form.body.id;
});

async function submitted(baseUrl?: string): Promise<{ id: string; token: string }> {
  // An address of its own: the submissions of other files' servers share 127.0.0.1's bucket.
  const res = await api('POST', '/api/v1/reviews', {
    body: reviewBody(formId),
    baseUrl,
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, token: res.body.media_upload.token };
}

/** Everything under the review's folder (temporary `.part` files included), and its rows. */
async function storedFor(reviewId: string) {
  const dir = path.join(MEDIA_DIR, t.org.id, reviewId);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const [{ rows }] = await db`select count(*)::int as rows from plaudit.review_media where review_id = ${reviewId}`;
  return { files, rows };
}

/**
 * An upload sent with node:http, to know when its whole body has left: `sent` resolves then, and
 * `answered` with the API's answer.
 */
function uploadWatched(reviewId: string, token: string, bytes: Uint8Array, baseUrl: string = inject('apiUrl')) {
  const boundary = `----plaudit${crypto.randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f.png"\r\ncontent-type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const req = http.request(`${baseUrl}/api/v1/reviews/${reviewId}/media`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': body.length,
      'x-upload-token': token,
    },
  });
  const sent = new Promise<void>((resolve) => req.on('finish', resolve));
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
  });
  req.end(body);
  return { sent, answered };
}

describe('hostile images', () => {
  it('refuses a progressive JPEG of 300 scans from its markers (422), storing nothing', async () => {
    const review = await submitted();
    const file = jpegWithScans(4096, 4096, 300);
    expect(file.length).toBeLessThan(10_000);
    const res = await upload(review.id, file, { token: review.token });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      `file: a JPEG image may have at most ${MAX_JPEG_SCANS} scans (this one has 300); save it again as a baseline JPEG`,
    );
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
  });

  it("refuses an image whose decoding would pass the memory budget (413): a progressive JPEG's coefficients count", async () => {
    const review = await submitted();
    const res = await upload(review.id, jpegWithScans(5000, 5000, 10), { token: review.token });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(
      `file: this 5000 × 5000 progressive JPEG needs more memory to decode than an upload may take (${
        DECODE_BUDGET_BYTES / 1024 / 1024
      } MiB)`,
    );
    const png = await upload(review.id, blankPng(8000, 6000), { token: review.token, name: 'big.png' });
    expect(png.status).toBe(413);
    expect(png.body.message).toMatch(/^file: an image may have at most 40 megapixels \(this one has 8000 × 6000\)$/);
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
  });

  it('answers /health while a 36-megapixel PNG of 40 KB decodes', async () => {
    const review = await submitted();
    // Its last row is missing: the decoder finds out only at the end, and the refusal then needs
    // no more input or output, so an API decoding on its event loop would answer it before /health.
    const file = blankPng(6000, 6000, { cut: true });
    expect(file.length).toBeLessThan(100_000);
    const order: string[] = [];
    const uploading = uploadWatched(review.id, review.token, file);
    const answered = uploading.answered.then((res) => {
      order.push('upload');
      return res;
    });
    // Asked once the whole file has left: the API is reading it, then decoding it.
    await uploading.sent;
    const health = await api('GET', '/api/v1/health');
    order.push('health');
    expect(health.status).toBe(200);
    const res = await answered;
    expect(order).toEqual(['health', 'upload']);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('file: the PNG image is corrupt and does not decode');
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
  });

  it('refuses an image that is not made within the deadline (422), storing nothing', async () => {
    const review = await submitted(hurried.url);
    const res = await upload(review.id, await jpegWithGps(1200, 800), { token: review.token, baseUrl: hurried.url });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('file: the image takes too long to decode (more than 1 ms)');
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
    // The server goes on answering, its worker gone.
    expect((await hurried.call('GET', '/api/v1/health')).status).toBe(200);
  });

  it('answers 503 with Retry-After when more images wait than the queue holds, storing nothing', async () => {
    const [first, second] = [await submitted(single.url), await submitted(single.url)];
    const decoding = uploadWatched(first.id, first.token, blankPng(6000, 6000, { cut: true }), single.url);
    await decoding.sent;
    const busy = await upload(second.id, await jpegWithGps(64, 48), { token: second.token, baseUrl: single.url });
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual(
      errorBody(503, 'Service Unavailable', /^The media processing is busy; try again shortly$/),
    );
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await decoding.answered).status).toBe(422);
    expect(await storedFor(second.id)).toEqual({ files: [], rows: 0 });
    // Its turn come, the same file is taken.
    expect((await upload(second.id, await jpegWithGps(64, 48), { token: second.token, baseUrl: single.url })).status)
      .toBe(201);
  });
});
