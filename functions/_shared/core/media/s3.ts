// Media in an S3-compatible bucket (AWS S3, Supabase Storage's S3 endpoint, MinIO…), path-style,
// each request signed with AWS Signature Version 4 by WebCrypto: no SDK.
import { toHex } from '../bytes.ts';
import type { S3Settings } from './config.ts';
import type { MediaStorage, StoredFile } from './storage.ts';

const encoder = new TextEncoder();

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, encoder.encode(text)));
}

/** RFC 3986 encoding of each path segment, as SigV4's canonical URI wants it. */
const encodePath = (path: string) =>
  path.split('/').map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`))
    .join('/');

/**
 * The headers that sign a request with SigV4 (service `s3`, no query string): `x-amz-date`,
 * `x-amz-content-sha256` and `authorization`. `now` is given by tests.
 */
export async function signS3Request(
  s: Pick<S3Settings, 'region' | 'accessKeyId' | 'secretAccessKey'>,
  request: { method: string; url: URL; body: Uint8Array },
  now = new Date(),
): Promise<Record<string, string>> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = await sha256Hex(request.body);
  const signedHeaders = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [
    request.method,
    encodePath(request.url.pathname),
    '',
    `host:${request.url.host}\nx-amz-content-sha256:${payloadHash}\nx-amz-date:${amzDate}\n`,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${s.region}/s3/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${await sha256Hex(encoder.encode(canonical))}`;
  let key: Uint8Array = encoder.encode(`AWS4${s.secretAccessKey}`);
  for (const part of [day, s.region, 's3', 'aws4_request']) key = await hmac(key, part);
  const signature = toHex(await hmac(key, toSign));
  return {
    'x-amz-date': amzDate,
    'x-amz-content-sha256': payloadHash,
    authorization:
      `AWS4-HMAC-SHA256 Credential=${s.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

export class S3Storage implements MediaStorage {
  constructor(private readonly s: S3Settings) {}

  private async send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body: Uint8Array = new Uint8Array(),
    type?: string,
  ) {
    // The key's segments are a UUID path the API made (MEDIA_KEY): nothing in them needs escaping.
    const url = new URL(`${this.s.endpoint}/${this.s.bucket}/${key}`);
    const headers = await signS3Request(this.s, { method, url, body });
    return await fetch(url, {
      method,
      headers: type ? { ...headers, 'content-type': type } : headers,
      body: method === 'PUT' ? body as BodyInit : undefined,
    });
  }

  /** An S3 PUT stores the object whole or not at all: a cut-off upload leaves nothing. */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, bytes, contentType);
    await res.body?.cancel();
    if (!res.ok) throw new Error(`the media bucket answered ${res.status} to a PUT`);
  }

  async get(key: string): Promise<Uint8Array | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`the media bucket answered ${res.status} to a GET`);
    }
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The object as the bucket streams it, never held whole. */
  async open(key: string): Promise<StoredFile | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`the media bucket answered ${res.status} to a GET`);
    }
    return { body: res.body, size: Number(res.headers.get('content-length') ?? NaN) };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    await res.body?.cancel();
    if (!res.ok && res.status !== 404) throw new Error(`the media bucket answered ${res.status} to a DELETE`);
  }
}
