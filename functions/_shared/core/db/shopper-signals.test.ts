import { describe, expect, it } from 'vitest';
import { visitorDigest, visitorNetwork } from './shopper-signals.ts';

describe('visitorNetwork', () => {
  it('is an IPv4 address itself, and an IPv6 address its /64, however written', () => {
    expect(visitorNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(visitorNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(visitorNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(visitorNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(visitorNetwork('unknown')).toBe('unknown');
  });

  it('gives the addresses of one /64 one digest, and another /64 another', () => {
    const one = visitorDigest('2001:db8:1:2::1');
    expect(visitorDigest('2001:db8:1:2:ffff::9')).toEqual(one);
    expect(visitorDigest('2001:db8:1:3::1')).not.toEqual(one);
  });
});
