// Server-side request forgery guard for webhook URLs. A deployed service (environment
// 'production') only calls https URLs whose host resolves, entirely, to public addresses: it
// refuses loopback, private (RFC 1918), link-local (cloud metadata at 169.254.169.254), CGNAT,
// unique-local IPv6, IPv4-mapped IPv6 and every other special-purpose range, however the address
// is spelled (0x7f000001, 2130706433, 0177.0.0.1, 127.1 are all 127.0.0.1). The check runs when a
// URL is registered and again before each send, since DNS answers change.
// Local development allows http and any address, so a receiver on 127.0.0.1 works.
import type { Environment } from '../config.ts';

export type Resolver = (hostname: string) => Promise<string[]>;

export class UnsafeUrlError extends Error {}

/** Parses an IPv4 address the way inet_aton does (1 to 4 parts, decimal, octal or hex). */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = parseInt(p, 10);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return null;
  const room = 4 - nums.length; // bytes the last part fills
  if (last >= 2 ** (8 * room)) return null;
  const bytes = [...nums];
  for (let i = room - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes;
}

/** Parses an IPv6 address (optionally bracketed, with an embedded IPv4 tail) into 16 bytes. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  s = s.replace(/%.*$/, ''); // zone id
  if (!s.includes(':')) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = s.slice(lastColon + 1);
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(v4)) return null;
    tail = v4.split('.').map(Number);
    if (tail.some((n) => n > 255)) return null;
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string) => (h === '' ? [] : h.split(':'));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - rest.length).fill('0'), ...rest] : head;
  if (groups.length !== 8 || (halves.length === 2 && head.length + rest.length > 7)) return null;
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 255);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(b: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 255 : (0xff << (8 - bits)) & 0xff;
    if ((b[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

// Special-purpose IPv4 ranges (IANA registry) that a webhook must never reach.
const V4_BLOCKED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8], // RFC 1918
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12], // RFC 1918
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay
  [[192, 168, 0, 0], 16], // RFC 1918
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

export function isPublicIPv4(b: number[]): boolean {
  return !V4_BLOCKED.some(([base, bits]) => inV4(b, base, bits));
}

export function isPublicIPv6(b: number[]): boolean {
  const word = (i: number) => (b[2 * i] << 8) | b[2 * i + 1];
  // Global unicast is 2000::/3; everything else (loopback ::1, unspecified, IPv4-mapped
  // ::ffff:0:0/96, IPv4-compatible ::/96, unique-local fc00::/7, link-local fe80::/10,
  // multicast ff00::/8, discard 100::/64, NAT64 64:ff9b::/96) is refused.
  if ((b[0] & 0xe0) !== 0x20) return false;
  const w0 = word(0);
  const w1 = word(1);
  if (w0 === 0x2001 && w1 < 0x200) return false; // 2001::/23 IETF protocol assignments, Teredo
  if (w0 === 0x2001 && w1 === 0x0db8) return false; // documentation
  if (w0 === 0x2002) return false; // 6to4: embeds an IPv4 address
  if (w0 === 0x3fff && w1 < 0x1000) return false; // documentation (3fff::/20)
  return true;
}

/** True when `address` (an IP literal in any spelling) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const v6 = parseIPv6(address);
  if (v6) return isPublicIPv6(v6);
  const v4 = parseIPv4(address);
  if (v4) return isPublicIPv4(v4);
  return false;
}

function isIpLiteral(host: string): boolean {
  return parseIPv6(host) !== null || parseIPv4(host) !== null;
}

const BLOCKED_NAMES = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)\.?$/i;

export interface UrlCheckOptions {
  environment: Environment;
  resolve: Resolver;
}

/** A URL that may be called, and the addresses it was checked at (see checkWebhookUrl). */
export interface CheckedUrl {
  url: URL;
  /** The host's checked addresses, to connect to without looking the name up again; empty
   *  when there is nothing to pin (an IP literal, or development, where any address goes). */
  addresses: string[];
}

/**
 * Throws UnsafeUrlError, with a message fit for the API's 422, unless `raw` may be called.
 * Answers the parsed URL and, for a host name in production, the public addresses it resolved
 * to: calling one of those, not the name, is what keeps a DNS answer that changes after this
 * check (DNS rebinding) from reaching a private address.
 */
export async function checkWebhookUrl(raw: string, { environment, resolve }: UrlCheckOptions): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('must be an absolute URL');
  }
  if (url.username || url.password) throw new UnsafeUrlError('must not contain credentials');
  if (environment !== 'production') {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UnsafeUrlError('must be an http or https URL');
    }
    return { url, addresses: [] };
  }
  if (url.protocol !== 'https:') throw new UnsafeUrlError('must be an https URL');
  const host = url.hostname;
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host)) throw new UnsafeUrlError('must not point at a private, loopback or reserved address');
    return { url, addresses: [] };
  }
  if (BLOCKED_NAMES.test(host) || !host.includes('.')) {
    throw new UnsafeUrlError('must name a public host');
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new UnsafeUrlError(`host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`host ${host} does not resolve`);
  if (!addresses.every(isPublicAddress)) {
    throw new UnsafeUrlError('must not resolve to a private, loopback or reserved address');
  }
  return { url, addresses };
}

/** checkWebhookUrl, for callers that only need the verdict and the parsed URL. */
export async function assertSafeWebhookUrl(raw: string, options: UrlCheckOptions): Promise<URL> {
  return (await checkWebhookUrl(raw, options)).url;
}
