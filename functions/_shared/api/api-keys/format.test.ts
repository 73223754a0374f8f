import { describe, expect, it } from 'vitest';
import { timingSafeEqual } from '../../core/bytes.ts';
import { bearerToken, checksum, isWellFormedKey, looksLikeKey, sha256 } from './format.ts';

describe('API key format', () => {
  it('computes the same checksum as plaudit.api_key_checksum (known vector)', async () => {
    expect(checksum('abc')).toBe('3Pia9n');
  });

  it('accepts a key whose checksum matches and refuses one character off', async () => {
    const body = 'A'.repeat(16) + 'b'.repeat(16);
    const key = `rk_${body}${checksum(body)}`;
    expect(isWellFormedKey(key)).toBe(true);
    const typo = key.slice(0, 10) + (key[10] === 'A' ? 'B' : 'A') + key.slice(11);
    expect(isWellFormedKey(typo)).toBe(false);
  });

  it('refuses keys of the wrong shape', async () => {
    for (const bad of ['', 'rk_', 'sk_' + 'a'.repeat(38), 'rk_' + 'a'.repeat(37), 'rk_' + 'a'.repeat(37) + '!']) {
      expect(isWellFormedKey(bad)).toBe(false);
      expect(looksLikeKey(bad)).toBe(false);
    }
  });

  it('reads the bearer token of an Authorization header', () => {
    expect(bearerToken('Bearer rk_x')).toBe('rk_x');
    expect(bearerToken('bearer   rk_x ')).toBe('rk_x');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('hashes with SHA-256', async () => {
    const hex = Buffer.from(sha256('abc')).toString('hex');
    expect(hex).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compares in constant time and still answers correctly', () => {
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
  });
});
