// reviews.uploadMedia and reviews.moderateMedia against the real API, from Node: a photo as a
// Buffer with the reviewer's token, as a Blob and as a file stream with the organization's key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { jpegWithGps, png } from '../helpers/media.ts';
import { PermissionError, Plaudit, ValidationError } from '../../sdk/src/index.ts';
import { client, publicClient } from './helpers.ts';

let t: Tenant;
let plaudit: Plaudit;
let formId: string;

beforeAll(async () => {
  t = await createTenant();
  plaudit = client(t, 'write');
  formId = (await plaudit.reviewForms.create({ name: 'SDK photos' })).id;
});

const submit = () =>
  publicClient().reviews.submit({
    form_id: formId,
    rating: 5,
    content: 'See the photos',
    reviewer_name: 'Ada',
    reviewer_email: `ada-${crypto.randomUUID()}@example.com`,
  });

describe('reviews.uploadMedia', () => {
  it('takes a Buffer with the upload token, no key sent', async () => {
    const review = await submit();
    expect(review.media_upload).toMatchObject({ max_files: 6, max_bytes: 100 * 1024 * 1024 });
    const photo = Buffer.from(await jpegWithGps(64, 48));
    const item = await publicClient().reviews.uploadMedia(review.id, photo, { uploadToken: review.media_upload.token });
    expect(item).toMatchObject({ type: 'image', width: 64, height: 48, is_hidden: false });
    const { response } = await publicClient().reviews.uploadMedia(review.id, photo, {
      uploadToken: review.media_upload.token,
    }).withResponse();
    expect(response.status).toBe(200); // the same file again
  });

  it('takes a Blob and a file stream with the write key, and moderates an item', async () => {
    const review = await submit();
    const blob = await plaudit.reviews.uploadMedia(review.id, new Blob([png(30, 20) as Uint8Array<ArrayBuffer>]), {
      filename: 'a.png',
    });
    expect(blob).toMatchObject({ width: 30, height: 20 });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-media-')), 'photo.jpg');
    fs.writeFileSync(file, await jpegWithGps(50, 50, 3));
    const streamed = await plaudit.reviews.uploadMedia(review.id, fs.createReadStream(file));
    expect(streamed).toMatchObject({ width: 50, height: 50 });
    const web = await plaudit.reviews.uploadMedia(
      review.id,
      Readable.toWeb(Readable.from([await jpegWithGps(20, 20, 4)])) as ReadableStream<Uint8Array>,
    );
    expect(web.width).toBe(20);

    const moderated = await plaudit.reviews.moderateMedia(review.id, streamed.id, { action: 'hide', reason: 'A face' });
    expect(moderated.media.map((m) => [m.id, m.is_hidden])).toEqual([
      [blob.id, false],
      [streamed.id, true],
      [web.id, false],
    ]);
  });

  it('raises the API refusals as errors', async () => {
    const review = await submit();
    await expect(plaudit.reviews.uploadMedia(review.id, new TextEncoder().encode('<svg/>'))).rejects.toMatchObject({
      status: 415,
    });
    await expect(client(t, 'read').reviews.uploadMedia(review.id, await jpegWithGps(10, 10))).rejects.toBeInstanceOf(
      PermissionError,
    );
    expect(ValidationError).toBeDefined();
  });
});
