// Where media are stored and read, and how often one may upload (docs/media.md).
import { env } from '../runtime.ts';
import type { DecodeLimits } from './off-thread.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface MediaConfig {
  /** MEDIA_STORAGE: `local` (files under the data directory, served by the API) or `s3`. */
  storage: 'local' | 's3';
  /** Local storage's folder: MEDIA_DIR, or `media/` in PLAUDIT_DATA_DIR (`.plaudit`). */
  dir: string;
  s3: S3Settings | null;
  /** What a stored file's key is appended to, to make its public URL (MEDIA_PUBLIC_URL). */
  publicBase: string;
  /** Uploads a client address may start a minute (MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE). */
  uploadsPerAddress: number;
  /** Uploads one review may take a minute, refused ones included. */
  uploadsPerReview: number;
  /**
   * How long the API serves a file it found visible before asking the database again
   * (MEDIA_VISIBILITY_SECONDS, default 10; 0 asks every time): the longest a hidden item's file
   * is still served by an instance that did not hide it (core/media/visibility.ts).
   */
  visibilityTtlMs: number;
  /**
   * How long making one image may take in its worker (MEDIA_DECODE_TIMEOUT_MS, default 30 s), how
   * many are made at once (MEDIA_DECODES_AT_ONCE, default 1) and how many may wait (MEDIA_DECODE_QUEUE, default 8).
   */
  decode: DecodeLimits;
}

function required(name: string): string {
  const value = env(name);
  if (!value) throw new Error(`MEDIA_STORAGE=s3 needs ${name}`);
  return value;
}

function count(name: string, fallback: number): number {
  const raw = env(name);
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

function seconds(name: string, fallback: number): number {
  const raw = env(name);
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 0 || n > 3600) {
    throw new Error(`${name} must be a whole number of seconds, 0 to 3600`);
  }
  return n;
}

function whole(name: string, fallback: number): number {
  const raw = env(name);
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`);
  return n;
}

export function loadMediaConfig(publicUrl: string): MediaConfig {
  const storage = env('MEDIA_STORAGE') ?? 'local';
  if (storage !== 'local' && storage !== 's3') throw new Error('MEDIA_STORAGE must be local or s3');
  const s3 = storage === 's3'
    ? {
      endpoint: required('S3_ENDPOINT').replace(/\/+$/, ''),
      bucket: required('S3_BUCKET'),
      region: env('S3_REGION') || 'us-east-1',
      accessKeyId: required('S3_ACCESS_KEY_ID'),
      secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
    }
    : null;
  // By default the API serves the files itself (from the bucket, for s3), so that a hidden item's
  // URL answers 404; MEDIA_PUBLIC_URL points the URLs elsewhere (a CDN before the bucket).
  const publicBase = env('MEDIA_PUBLIC_URL') || `${publicUrl}/api/v1/public/media`;
  return {
    storage,
    dir: env('MEDIA_DIR') ?? `${env('PLAUDIT_DATA_DIR') ?? '.plaudit'}/media`,
    s3,
    publicBase: publicBase.replace(/\/+$/, ''),
    uploadsPerAddress: count('MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE', 30),
    uploadsPerReview: 20,
    visibilityTtlMs: seconds('MEDIA_VISIBILITY_SECONDS', 10) * 1000,
    decode: {
      timeoutMs: count('MEDIA_DECODE_TIMEOUT_MS', 30_000),
      decodesAtOnce: count('MEDIA_DECODES_AT_ONCE', 1),
      queue: whole('MEDIA_DECODE_QUEUE', 8),
    },
  };
}
