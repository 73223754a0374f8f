// The SigV4 signatures of media requests, checked against aws4 (an independent, widely used
// signer): the same request, time and keys must give the same authorization.
import { createHash } from 'node:crypto';
import aws4 from 'aws4';
import { describe, expect, it } from 'vitest';
import { signS3Request } from './s3.ts';

const keys = {
  region: 'eu-central-1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const now = new Date('2026-11-28T05:04:03.000Z');

/** aws4's authorization for the request whose payload hash `headers` carry (no body: aws4 would sign its length and type too). */
async function reference(method: string, url: URL, headers: Record<string, string>) {
  const signed = aws4.sign({
    host: url.host,
    path: url.pathname,
    method,
    service: 's3',
    region: keys.region,
    headers: { 'X-Amz-Date': headers['x-amz-date'], 'X-Amz-Content-Sha256': headers['x-amz-content-sha256'] },
  }, { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey });
  return (signed.headers as Record<string, string>).Authorization;
}

describe('signS3Request', () => {
  it('signs PUT, GET and DELETE as aws4 does, a port in the host included', async () => {
    const photo = new TextEncoder().encode('the bytes of a photo');
    for (
      const [method, url, body] of [
        ['PUT', new URL('https://s3.eu-central-1.amazonaws.com/plaudit/0b7f/1c2d/3e4f.jpg'), photo],
        ['GET', new URL('http://127.0.0.1:9000/media/a/b/c-thumb.jpg'), new Uint8Array()],
        ['DELETE', new URL('https://project.supabase.co/storage/v1/s3/media/a/b/c.mp4'), new Uint8Array()],
      ] as const
    ) {
      const headers = await signS3Request(keys, { method, url, body }, now);
      expect(headers['x-amz-date']).toBe('20261128T050403Z');
      expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
      expect(headers.authorization).toBe(await reference(method, url, headers));
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261128\/eu-central-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
      );
    }
  });
});
