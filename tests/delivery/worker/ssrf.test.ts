import { describe, expect, it } from 'vitest';
import { resolveHost } from '../../../functions/_shared/core/net/dns.ts';
import {
  assertSafeWebhookUrl,
  isPublicAddress,
  parseIPv4,
  parseIPv6,
  type Resolver,
} from '../../../functions/_shared/core/net/ssrf.ts';

// A resolver with fixed answers, so that no test depends on the network.
const fixed: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example.com': ['93.184.216.34', '10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'v6private.example.com': ['fd00::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
};
const resolve: Resolver = async (host) => {
  if (host in fixed) return fixed[host];
  return await resolveHost(host); // real resolution: localhost → 127.0.0.1 / ::1
};
const production = { environment: 'production' as const, resolve };
const development = { environment: 'development' as const, resolve };

describe('SSRF guard, deployed service', () => {
  const refused: [string, RegExp][] = [
    ['http://hooks.example.com/x', /https/],
    ['https://127.0.0.1/x', /private, loopback or reserved/],
    ['https://localhost/x', /public host/],
    ['https://api.localhost/x', /public host/],
    ['https://0x7f000001/x', /private, loopback or reserved/],
    ['https://2130706433/x', /private, loopback or reserved/],
    ['https://0177.0.0.1/x', /private, loopback or reserved/],
    ['https://127.1/x', /private, loopback or reserved/],
    ['https://0.0.0.0/x', /private, loopback or reserved/],
    ['https://10.1.2.3/x', /private, loopback or reserved/],
    ['https://172.16.0.1/x', /private, loopback or reserved/],
    ['https://172.31.255.255/x', /private, loopback or reserved/],
    ['https://192.168.1.1/x', /private, loopback or reserved/],
    ['https://169.254.169.254/latest/meta-data/', /private, loopback or reserved/],
    ['https://100.64.0.1/x', /private, loopback or reserved/],
    ['https://100.127.255.254/x', /private, loopback or reserved/],
    ['https://[::1]/x', /private, loopback or reserved/],
    ['https://[::]/x', /private, loopback or reserved/],
    ['https://[fc00::1]/x', /private, loopback or reserved/],
    ['https://[fd12:3456::1]/x', /private, loopback or reserved/],
    ['https://[fe80::1]/x', /private, loopback or reserved/],
    ['https://[::ffff:127.0.0.1]/x', /private, loopback or reserved/],
    ['https://[::ffff:8.8.8.8]/x', /private, loopback or reserved/],
    ['https://[64:ff9b::7f00:1]/x', /private, loopback or reserved/],
    ['https://[2002:7f00:1::]/x', /private, loopback or reserved/],
    ['https://224.0.0.1/x', /private, loopback or reserved/],
    ['https://255.255.255.255/x', /private, loopback or reserved/],
    ['https://rebind.example.com/x', /resolve to a private/],
    ['https://metadata.example.com/x', /resolve to a private/],
    ['https://v6private.example.com/x', /resolve to a private/],
    ['https://mapped.example.com/x', /resolve to a private/],
    ['https://intranet/x', /public host/],
    ['https://db.internal/x', /public host/],
    ['https://user:pass@hooks.example.com/x', /credentials/],
    ['ftp://hooks.example.com/x', /https/],
    ['not a url', /absolute URL/],
  ];

  it.each(refused)('refuses %s', async (url, reason) => {
    await expect(assertSafeWebhookUrl(url, production)).rejects.toThrow(reason);
  });

  it('refuses a hostname that really resolves to 127.0.0.1 (localhost, through the system resolver)', async () => {
    expect(await resolveHost('localhost')).toContain('127.0.0.1');
    // The name rule aside, its addresses alone are refused too.
    const viaAddresses: Resolver = async () => await resolveHost('localhost');
    await expect(
      assertSafeWebhookUrl('https://my-receiver.example.net/x', { environment: 'production', resolve: viaAddresses }),
    )
      .rejects.toThrow(/resolve to a private/);
  });

  it('accepts public https URLs', async () => {
    for (
      const url of [
        'https://hooks.example.com/plaudit',
        'https://93.184.216.34/x',
        'https://[2606:4700::1111]/x',
        'https://8.8.8.8:8443/x',
      ]
    ) {
      await expect(assertSafeWebhookUrl(url, production)).resolves.toBeInstanceOf(URL);
    }
  });
});

describe('SSRF guard, local development', () => {
  it('allows loopback http, still refuses other schemes', async () => {
    await expect(assertSafeWebhookUrl('http://127.0.0.1:9999/hook', development)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://localhost:9999/hook', development)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('file:///etc/passwd', development)).rejects.toThrow(/http/);
  });
});

describe('address parsing', () => {
  it('reads every numeric spelling of an IPv4 address', () => {
    for (
      const s of [
        '127.0.0.1',
        '0x7f000001',
        '2130706433',
        '0177.0.0.1',
        '127.1',
        '127.0.1',
        '0x7f.0.0.0x1',
        '017700000001',
      ]
    ) {
      expect(parseIPv4(s), s).toEqual([127, 0, 0, 1]);
    }
    for (const s of ['256.1.1.1', '1.2.3.4.5', '0x1g', '4294967296', '']) expect(parseIPv4(s), s).toBeNull();
  });

  it('reads IPv6 forms, with an embedded IPv4 tail', () => {
    expect(parseIPv6('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(parseIPv6('[::ffff:127.0.0.1]')!.slice(10)).toEqual([255, 255, 127, 0, 0, 1]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('12345::')).toBeNull();
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('100.63.255.255')).toBe(true);
    expect(isPublicAddress('100.128.0.0')).toBe(true);
    expect(isPublicAddress('172.32.0.1')).toBe(true);
    expect(isPublicAddress('172.15.255.255')).toBe(true);
    expect(isPublicAddress('169.254.0.1')).toBe(false);
    expect(isPublicAddress('198.18.0.1')).toBe(false);
    expect(isPublicAddress('2001:db8::1')).toBe(false);
    expect(isPublicAddress('ff02::1')).toBe(false);
    expect(isPublicAddress('example.com')).toBe(false);
  });
});
