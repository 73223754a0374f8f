import { describe, expect, it } from 'vitest';
import { READ_AFTER_COOKIE, readAfterOf } from './index.ts';

describe('readAfterOf', () => {
  it('finds the WAL position among the cookies', () => {
    expect(readAfterOf(`a=1; ${READ_AFTER_COOKIE}=1A/B374D848; b=2`)).toBe('1A/B374D848');
    expect(readAfterOf(`${READ_AFTER_COOKIE}=0/0`)).toBe('0/0');
  });

  it('ignores a missing, look-alike or malformed cookie', () => {
    expect(readAfterOf(undefined)).toBeNull();
    expect(readAfterOf('a=1')).toBeNull();
    expect(readAfterOf(`x${READ_AFTER_COOKIE}=0/1`)).toBeNull();
    for (const bad of ['', '1', '0/1%', "0/1'; select", '%E0%A4%A', '123456789/0']) {
      expect(readAfterOf(`${READ_AFTER_COOKIE}=${bad}`)).toBeNull();
    }
  });
});
