// POST /reviews/:id/media: a reviewer's photos and videos, with the submission's upload token or
// the organization's write key; judged by content, re-encoded without metadata, stored, served.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../../../functions/_shared/core/media/sniff.ts';
import { MAX_MEDIA_PER_REVIEW, UPLOAD_TOKEN_HOURS } from '../../../functions/_shared/core/media/limits.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { fetchFile, GPS_MARKER, jpegWithGps, mp4, png, pngClaiming, upload, webm } from '../../helpers/media.ts';
import { freshIp, ownApiServer, reviewBody } from '../../helpers/reviews.ts';

let t: Tenant;
let other: Tenant;
let formId: string;
const MEDIA_DIR = path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'media');
// The per-address upload limit, on a server of its own (the shared one's is out of the way).
const limited = ownApiServer({ MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE: '2' });

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Photos' },
  });
  formId = form.body.id;
});

/** A review just submitted, with its upload token. */
async function submitted(): Promise<{ id: string; token: string }> {
  const res = await api('POST', '/api/v1/reviews', { body: reviewBody(formId) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, token: res.body.media_upload.token };
}

/** The files stored for a review, and its rows. */
async function storedFor(reviewId: string) {
  const dir = path.join(MEDIA_DIR, t.org.id, reviewId);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const [{ rows }] = await db`select count(*)::int as rows from plaudit.review_media where review_id = ${reviewId}`;
  return { files, rows };
}

const text = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
const ITEM_KEYS = ['id', 'type', 'url', 'thumbnail_url', 'width', 'height', 'is_hidden', 'created_at'];

describe('POST /api/v1/reviews/:id/media', () => {
  it('stores a photo re-encoded without EXIF or GPS, at most 2,048 px, with a 400 px thumbnail', async () => {
    const review = await submitted();
    const original = await jpegWithGps(3000, 2000);
    expect(text(original)).toContain('Exif');
    expect(text(original)).toContain(GPS_MARKER);

    const res = await upload(review.id, original, { token: review.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body)).toEqual(ITEM_KEYS);
    expect(res.body).toMatchObject({ type: 'image', width: 2048, height: 1365, is_hidden: false });

    const image = await fetchFile(res.body.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(imageSize(image.bytes, 'jpeg')).toEqual({ width: 2048, height: 1365 });
    for (const gone of ['Exif', GPS_MARKER, 'GPS']) expect(text(image.bytes)).not.toContain(gone);

    const thumbnail = await fetchFile(res.body.thumbnail_url);
    expect(thumbnail.status).toBe(200);
    expect(imageSize(thumbnail.bytes, 'jpeg')).toEqual({ width: 400, height: 267 });
    expect(text(thumbnail.bytes)).not.toContain('Exif');

    // The Review and the public item carry it; the public item without is_hidden.
    const one = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${review.id}`, { key: t.keys.read });
    expect(one.body.media).toEqual([res.body]);
    const feed = await api('GET', `/api/v1/public/profiles/${t.org.slug}/reviews?has_media=true`);
    const item = feed.body.data.find((r: { id: string }) => r.id === review.id);
    const { is_hidden: _, ...publicItem } = res.body;
    expect(item.media).toEqual([publicItem]);
  });

  it('turns a photo as its EXIF orientation says, since the EXIF is not kept', async () => {
    const review = await submitted();
    const res = await upload(review.id, await jpegWithGps(60, 40, 1, 6), { token: review.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ width: 40, height: 60 });
    const image = await fetchFile(res.body.url);
    expect(imageSize(image.bytes, 'jpeg')).toEqual({ width: 40, height: 60 });
  });

  it('flattens a transparent PNG onto white and drops its text chunks', async () => {
    const review = await submitted();
    const res = await upload(review.id, png(64, 32), { token: review.token, name: 'logo.png', type: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ width: 64, height: 32 });
    const image = await fetchFile(res.body.url);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(text(image.bytes)).not.toContain(GPS_MARKER);
  });

  it('stores MP4 and WebM videos as sent', async () => {
    const review = await submitted();
    for (const [bytes, type] of [[mp4(), 'video/mp4'], [webm(), 'video/webm']] as const) {
      const res = await upload(review.id, bytes, {
        token: review.token,
        name: 'clip',
        type: 'application/octet-stream',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ type: 'video', thumbnail_url: null, width: null, height: null });
      const file = await fetchFile(res.body.url);
      expect(file.headers.get('content-type')).toBe(type);
      expect(file.bytes).toEqual(bytes);
    }
  });

  it('judges a file by its content: a lying name or type, SVG or HTML is 415, and nothing is stored', async () => {
    const review = await submitted();
    const lies: [string, string, string][] = [
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'x.svg', 'image/svg+xml'],
      ['<!doctype html><script>alert(1)</script>', 'photo.jpg', 'image/jpeg'],
      ['GIF89a................', 'photo.png', 'image/png'],
      ['just text', 'clip.mp4', 'video/mp4'],
    ];
    for (const [content, name, type] of lies) {
      const res = await upload(review.id, new TextEncoder().encode(content), { token: review.token, name, type });
      expect(res.status, name).toBe(415);
      expect(res.body).toEqual(errorBody(415, 'Unsupported Media Type', /^file: must be a JPEG, PNG or WebP image/));
    }
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
  });

  it('refuses a decompression bomb from its header (413), a corrupt image or video (422), and stores nothing', async () => {
    const review = await submitted();
    const bomb = await upload(review.id, pngClaiming(10_000, 10_000), { token: review.token });
    expect(bomb.status).toBe(413);
    expect(bomb.body).toEqual(
      errorBody(413, 'Payload Too Large', /at most 40 megapixels \(this one has 10000 × 10000\)/),
    );

    // A whole frame header (300 × 200), then nothing a decoder can read.
    const jpeg = await jpegWithGps(300, 200);
    const corrupt = new Uint8Array([
      0xff,
      0xd8,
      0xff,
      0xc0,
      0,
      17,
      8,
      0,
      200,
      1,
      44,
      3,
      1,
      0x22,
      0,
      2,
      0x11,
      1,
      3,
      0x11,
      1,
      ...new Array(1000).fill(0x5a),
    ]);
    const res = await upload(review.id, corrupt, { token: review.token });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', /^file: the JPEG image is corrupt/));

    const cut = mp4().subarray(0, 500);
    expect((await upload(review.id, cut, { token: review.token })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', 'file: the MP4 video is corrupt or cut off'),
    );

    const huge = new Uint8Array(15 * 1024 * 1024 + 1);
    huge.set(jpeg.subarray(0, 200));
    expect((await upload(review.id, huge, { token: review.token })).body).toEqual(
      errorBody(413, 'Payload Too Large', 'file: an image may be at most 15 MiB'),
    );
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
  });

  it('stores the same bytes once, takes at most 6, and answers 415 to a body that is not multipart', async () => {
    const review = await submitted();
    const first = await upload(review.id, await jpegWithGps(40, 30, 1), { key: t.keys.write });
    expect(first.status).toBe(201);
    const again = await upload(review.id, await jpegWithGps(40, 30, 1), { key: t.keys.write });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    for (let seed = 2; seed <= 6; seed++) {
      expect((await upload(review.id, await jpegWithGps(40, 30, seed), { key: t.keys.write })).status).toBe(201);
    }
    const seventh = await upload(review.id, await jpegWithGps(40, 30, 7), { key: t.keys.write });
    expect(seventh.status).toBe(422);
    expect(seventh.body).toEqual(
      errorBody(422, 'Unprocessable Entity', 'file: a review may have at most 6 photos and videos'),
    );
    const stored = await storedFor(review.id);
    expect(stored.rows).toBe(6);
    expect(stored.files).toHaveLength(12); // each photo and its thumbnail, no temporary file left

    const one = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${review.id}`, { key: t.keys.read });
    expect(one.body.media.map((m: { id: string }) => m.id)[0]).toBe(first.body.id);

    const json = await api('POST', `/api/v1/reviews/${(await submitted()).id}/media`, {
      key: t.keys.write,
      body: { file: 'x' },
    });
    expect(json.status).toBe(415);
  });

  it('honours an Idempotency-Key with a key: a retry of the same file replays, another file is 422', async () => {
    const review = await submitted();
    const photo = await jpegWithGps(30, 30, 11);
    const key = crypto.randomUUID();
    const first = await upload(review.id, photo, { key: t.keys.write, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    // A retry sends a new multipart body (another boundary) around the same file.
    const retry = await upload(review.id, photo, { key: t.keys.write, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const other = await upload(review.id, await jpegWithGps(30, 30, 12), {
      key: t.keys.write,
      headers: { 'idempotency-key': key },
    });
    expect(other.status).toBe(422);
    expect((await storedFor(review.id)).rows).toBe(1);
  });

  it("takes only the review's own token or its organization's write key", async () => {
    const review = await submitted();
    const elsewhere = await submitted();
    const photo = await jpegWithGps(40, 30, 9);
    const cases: [Parameters<typeof upload>[2], number, string][] = [
      [{}, 401, 'Unauthorized'],
      [{ token: 'mu_not-a-token' }, 401, 'Unauthorized'],
      [{ token: `mu_${'A'.repeat(43)}` }, 401, 'Unauthorized'],
      [{ token: elsewhere.token }, 403, 'Forbidden'],
      [{ key: t.keys.read }, 403, 'Forbidden'],
      [{ key: other.keys.write }, 404, 'Not Found'],
    ];
    for (const [auth, status, error] of cases) {
      const res = await upload(review.id, photo, auth);
      expect(res.status, JSON.stringify(auth)).toBe(status);
      expect(res.body).toEqual(errorBody(status, error));
    }
    expect(await storedFor(review.id)).toEqual({ files: [], rows: 0 });
    // An expired token adds nothing either.
    await db`update plaudit.media_upload_tokens set expires_at = now() - interval '1 second'
             where review_id = ${review.id}`;
    expect((await upload(review.id, photo, { token: review.token })).status).toBe(401);
  });

  it('holds new media hidden when the profile moderates them by hand; a hidden file is 404 to the public', async () => {
    const manual = await createTenant();
    await api('PATCH', `/api/v1/organizations/${manual.org.id}/public-profile`, {
      key: manual.keys.admin,
      body: { media_moderation: 'manual' },
    });
    const form = await api('POST', `/api/v1/organizations/${manual.org.id}/review-forms`, {
      key: manual.keys.write,
      body: { name: 'Held' },
    });
    const sent = await api('POST', '/api/v1/reviews', { body: reviewBody(form.body.id) });
    const res = await upload(sent.body.id, await jpegWithGps(50, 50), { token: sent.body.media_upload.token });
    expect(res.status).toBe(201);
    expect(res.body.is_hidden).toBe(true);
    expect((await fetchFile(res.body.url)).status).toBe(404);
    expect((await fetchFile(res.body.thumbnail_url)).status).toBe(404);
    const feed = await api('GET', `/api/v1/public/profiles/${manual.org.slug}/reviews`);
    expect(feed.body.data[0].media).toEqual([]);
    const filtered = await api('GET', `/api/v1/public/profiles/${manual.org.slug}/reviews?has_media=true`);
    expect(filtered.body.data).toEqual([]);
  });

  it('answers 404 for a file that is not there or not a media key', async () => {
    const base = `/api/v1/public/media/${t.org.id}/${crypto.randomUUID()}`;
    for (const file of [`${crypto.randomUUID()}.jpg`, '..%2F..%2Fsecrets.json', 'x.html']) {
      const res = await api('GET', `${base}/${file}`);
      expect(res.status, file).toBe(404);
    }
  });

  it('limits uploads per client address, refused ones included (429 with Retry-After)', async () => {
    // The limit counts in windows of a clock minute: a try that straddles a minute's end (its
    // count starting again) proves nothing and is made again, from a fresh address.
    const minute = () => Math.floor(Date.now() / 60_000);
    for (let attempt = 1;; attempt++) {
      const ip = freshIp();
      const began = minute();
      const sent = await limited.call('POST', '/api/v1/reviews', {
        body: reviewBody(formId),
        headers: { 'x-forwarded-for': ip },
      });
      const opts = { token: sent.body.media_upload.token, baseUrl: limited.url, headers: { 'x-forwarded-for': ip } };
      const refused = await upload(sent.body.id, new TextEncoder().encode('not a photo'), opts);
      const stored = await upload(sent.body.id, await jpegWithGps(20, 20), opts);
      const third = await upload(sent.body.id, await jpegWithGps(20, 20, 2), opts);
      if (minute() !== began && attempt < 3) continue;
      expect(refused.status).toBe(415);
      expect(stored.status).toBe(201);
      expect(third.status).toBe(429);
      expect(third.body).toEqual(errorBody(429, 'Too Many Requests', /^Too many uploads from this address/));
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address still uploads.
      const elsewhere = { ...opts, headers: { 'x-forwarded-for': freshIp() } };
      expect((await upload(sent.body.id, await jpegWithGps(20, 20, 2), elsewhere)).status).toBe(201);
      return;
    }
  });

  it("holds each media limit once on each side: the database's functions and the API's constants agree", async () => {
    const [sql] = await db<{ per_review: number; token_hours: number }[]>`
      select plaudit.media_per_review_limit() as per_review,
             extract(epoch from plaudit.media_upload_token_lifetime())::int / 3600 as token_hours`;
    expect(sql).toEqual({ per_review: MAX_MEDIA_PER_REVIEW, token_hours: UPLOAD_TOKEN_HOURS });
    // What the database issues is what the answer says, and what a bot's unstored review is told.
    const headers = { 'x-forwarded-for': freshIp() };
    const sent = await api('POST', '/api/v1/reviews', { body: reviewBody(formId), headers });
    const bot = await api('POST', '/api/v1/reviews', { body: { ...reviewBody(formId), website_url: 'x' }, headers });
    for (const res of [sent, bot]) {
      expect(res.body.media_upload.max_files).toBe(MAX_MEDIA_PER_REVIEW);
      const hours = (Date.parse(res.body.media_upload.expires_at) - Date.now()) / 3600_000;
      expect(Math.abs(hours - UPLOAD_TOKEN_HOURS)).toBeLessThan(0.1);
    }
    // Both SQL checks read the function: inlined, no number of their own.
    const [{ bodies }] = await db<{ bodies: string[] }[]>`
      select array_agg(p.prosrc order by p.proname) as bodies from pg_proc p
       where p.oid in ('plaudit.check_review_media_upload(uuid,bytea,text,integer,integer)'::regprocedure,
                       'plaudit.add_review_media(uuid,bytea,uuid,text,text,text,text,text,text,integer,integer,bigint,bytea)'::regprocedure)`;
    for (const body of bodies) {
      expect(body).toContain('plaudit.media_per_review_limit()');
      expect(body).not.toMatch(/>=\s*\d/);
    }
  });
});
