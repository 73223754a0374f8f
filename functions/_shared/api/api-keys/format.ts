// The shape of an API key: `rk_` + 32 base62 characters + a 6-character checksum. Keys are made
// in the database (plaudit.issue_api_key); this module recognises one without asking it.
import { createHash } from 'node:crypto';
import { timingSafeEqual } from '../../core/bytes.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^rk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/**
 * SHA-256 of the UTF-8 text. Synchronous on purpose: it runs on every authenticated request, and
 * Web Crypto's digest is an asynchronous operation whose hand-off costs more than the hash.
 */
export function sha256(text: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(text, 'utf8').digest());
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Six base62 digits of the first four bytes of SHA-256(body), as plaudit.api_key_checksum. */
export function checksum(body: string): string {
  const digest = sha256(body);
  let v = new DataView(digest.buffer, digest.byteOffset).getUint32(0);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

/** True when `key` has the form of a Plaudit key and its checksum matches. */
export function isWellFormedKey(key: string): boolean {
  const m = KEY_PATTERN.exec(key);
  if (!m) return false;
  return timingSafeEqual(checksum(m[1]), m[2]);
}

export function looksLikeKey(key: string | undefined): boolean {
  return key !== undefined && KEY_PATTERN.test(key);
}

/** The key in an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
