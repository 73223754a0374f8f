// MEDIA_STORAGE=s3 against a real S3-compatible server on this machine (s3rver, a process of its
// own that checks every request's credentials): the files go to the bucket, the API serves
// them from it, a repeated upload leaves no extra object, and a bucket that refuses stores nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/postgres.mjs';
import { S3Storage } from '../../../functions/_shared/core/media/s3.ts';
import { imageSize } from '../../../functions/_shared/core/media/sniff.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { fetchFile, GPS_MARKER, jpegWithGps, upload } from '../../helpers/media.ts';
import { freshIp, ownApiServer, reviewBody } from '../../helpers/reviews.ts';

const port = await freePort();
const bucket = 'plaudit-media';
const dataDir = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? os.tmpdir(), 's3rver-'));
const settings = {
  endpoint: `http://127.0.0.1:${port}`,
  bucket,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
const s3Env = (accessKeyId: string) => ({
  MEDIA_STORAGE: 's3',
  S3_ENDPOINT: settings.endpoint,
  S3_BUCKET: bucket,
  S3_REGION: settings.region,
  S3_ACCESS_KEY_ID: accessKeyId,
  S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
});

let s3rver: ChildProcess;
beforeAll(async () => {
  s3rver = spawn(process.execPath, [
    'node_modules/s3rver/bin/s3rver.js',
    ...['--directory', dataDir, '--address', '127.0.0.1', '--port', String(port), '--silent'],
    ...['--configure-bucket', bucket],
  ], { stdio: 'ignore' });
  // Ready once it accepts connections.
  for (;;) {
    if (s3rver.exitCode !== null) throw new Error(`s3rver exited with ${s3rver.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => {
  s3rver?.kill();
});

const good = ownApiServer(s3Env(settings.accessKeyId));
// s3rver checks the access key but not a V4 signature's value: functions/_shared/core/media/s3.test.ts
// checks the signatures against an independent signer.
const refused = ownApiServer(s3Env('UNKNOWN-KEY'));
const bucketObjects = () =>
  fs.readdirSync(path.join(dataDir, bucket), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('._S3rver_object')).length;

let t: Tenant;
let formId: string;
beforeAll(async () => {
  t = await createTenant();
  formId = (await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Bucket' },
  })).body.id;
});

async function submitted(baseUrl: string) {
  const res = await api('POST', '/api/v1/reviews', {
    body: reviewBody(formId),
    baseUrl,
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, token: res.body.media_upload.token as string };
}

describe('MEDIA_STORAGE=s3', () => {
  it('puts the photo and its thumbnail in the bucket, signed, and serves them from it', async () => {
    const review = await submitted(good.url);
    const before = bucketObjects();
    const res = await upload(review.id, await jpegWithGps(900, 600), { token: review.token, baseUrl: good.url });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(bucketObjects()).toBe(before + 2);

    const key = new URL(res.body.url).pathname.split('/api/v1/public/media/')[1];
    const stored = await new S3Storage(settings).get(key);
    expect(stored).not.toBeNull();
    expect(imageSize(stored!, 'jpeg')).toEqual({ width: 900, height: 600 });
    expect(new TextDecoder('latin1').decode(stored!)).not.toContain(GPS_MARKER);

    const served = await fetchFile(res.body.url);
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(stored);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    // The same bytes again: the item it made, and the second copy's objects removed from the bucket.
    const again = await upload(review.id, await jpegWithGps(900, 600), { token: review.token, baseUrl: good.url });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(bucketObjects()).toBe(before + 2);
  });

  it('answers 503 and stores nothing when the bucket refuses the credentials', async () => {
    const review = await submitted(refused.url);
    const before = bucketObjects();
    const res = await upload(review.id, await jpegWithGps(60, 40), { token: review.token, baseUrl: refused.url });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(errorBody(503, 'Service Unavailable', /media storage is unavailable/));
    expect(bucketObjects()).toBe(before);
    const [{ n }] = await db`select count(*)::int as n from plaudit.review_media where review_id = ${review.id}`;
    expect(n).toBe(0);
  });

  it('deletes what it stored: the object is gone after delete', async () => {
    const storage = new S3Storage(settings);
    const key = `${crypto.randomUUID()}/${crypto.randomUUID()}/${crypto.randomUUID()}.jpg`;
    await storage.put(key, new Uint8Array([1, 2, 3]), 'image/jpeg');
    expect(await storage.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
  });
});
