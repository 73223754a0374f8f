// Each platform's signature scheme against signatures made the platform's documented way: Shopify
// and WooCommerce with node:crypto, Stripe with its own library, the `webhook` platform with the
// Standard Webhooks library. A scheme reads what was signed and the MACs sent; `verify` then
// checks them with the secret as the database does (plaudit.connection_signature_holds: the
// HMAC-SHA256 of the signed bytes under the key, the base64-decoded part of a `whsec_` secret for
// the `webhook` platform, the secret's bytes for the others). The clock is injected.
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../platforms.ts';
import { HEADER_IDS, isWooCommercePing, SIGNATURES } from './index.ts';

const enc = new TextEncoder();
const NOW = 1_800_000_000;
const headers = (h: Record<string, string>) => (name: string) =>
  Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];

const VERIFIERS = Object.fromEntries(
  (Object.keys(SIGNATURES) as Platform[]).map((platform) => [
    platform,
    (input: { secret: string; body: Uint8Array; header: (name: string) => string | undefined; nowSeconds: number }) =>
      Promise.resolve(verify(platform, input)),
  ]),
) as Record<
  Platform,
  (
    input: { secret: string; body: Uint8Array; header: (name: string) => string | undefined; nowSeconds: number },
  ) => Promise<{ ok: true; deliveryId: string | null; topic: string | null } | { ok: false; reason: string }>
>;

function verify(
  platform: Platform,
  { secret, ...input }: {
    secret: string;
    body: Uint8Array;
    header: (name: string) => string | undefined;
    nowSeconds: number;
  },
): { ok: true; deliveryId: string | null; topic: string | null } | { ok: false; reason: string } {
  const claim = SIGNATURES[platform](input);
  if (!claim.ok) return claim;
  const key = platform === 'webhook' ? Buffer.from(secret.replace(/^whsec_/, ''), 'base64') : Buffer.from(secret);
  const expected = createHmac('sha256', key).update(claim.signed).digest();
  return claim.signatures.some((mac) => expected.equals(Buffer.from(mac)))
    ? { ok: true, ...HEADER_IDS[platform](input.header) }
    : { ok: false, reason: claim.wrong };
}

describe('Shopify', () => {
  const secret = 'shpss_test_secret';
  const body = '{"id":820982911946154508,"name":"#1001","email":"jon@example.com"}';
  const sign = (b: string, s = secret) => createHmac('sha256', s).update(b, 'utf8').digest('base64');
  const verify = (h: Record<string, string>, b = body) =>
    VERIFIERS.shopify({ secret, body: enc.encode(b), header: headers(h), nowSeconds: NOW });

  it('takes the base64 HMAC of the raw body and reads topic and delivery id from the headers', async () => {
    expect(
      await verify({
        'X-Shopify-Hmac-Sha256': sign(body),
        'X-Shopify-Topic': 'orders/create',
        'X-Shopify-Webhook-Id': 'b54557e4',
      }),
    ).toEqual({ ok: true, topic: 'orders/create', deliveryId: 'b54557e4' });
  });

  it('refuses a missing signature, another secret and a changed body', async () => {
    expect((await verify({})).ok).toBe(false);
    expect((await verify({ 'X-Shopify-Hmac-Sha256': sign(body, 'other') })).ok).toBe(false);
    expect((await verify({ 'X-Shopify-Hmac-Sha256': sign(body) }, body.replace('1001', '1002'))).ok).toBe(false);
  });
});

describe('WooCommerce', () => {
  const secret = 'wc_secret';
  const body = '{"id":727,"number":"727","status":"processing"}';
  const sign = (b: string) => createHmac('sha256', secret).update(b, 'utf8').digest('base64');
  it("uses Shopify's scheme with its own headers", async () => {
    const v = await VERIFIERS.woocommerce({
      secret,
      body: enc.encode(body),
      header: headers({
        'X-WC-Webhook-Signature': sign(body),
        'X-WC-Webhook-Topic': 'order.updated',
        'X-WC-Webhook-Delivery-ID': '99',
      }),
      nowSeconds: NOW,
    });
    expect(v).toEqual({ ok: true, topic: 'order.updated', deliveryId: '99' });
    const wrong = await VERIFIERS.woocommerce({
      secret,
      body: enc.encode(body),
      header: headers({ 'X-WC-Webhook-Signature': sign(body + ' ') }),
      nowSeconds: NOW,
    });
    expect(wrong.ok).toBe(false);
  });

  it('knows the unsigned form-encoded ping, and nothing else, for one', () => {
    const form = headers({ 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(isWooCommercePing(form, enc.encode('webhook_id=12'))).toBe(true);
    expect(isWooCommercePing(form, enc.encode('webhook_id=12&x=1'))).toBe(false);
    expect(isWooCommercePing(headers({ 'Content-Type': 'application/json' }), enc.encode('webhook_id=12'))).toBe(false);
  });
});

describe('Stripe', () => {
  const secret = 'whsec_test_stripe';
  const stripe = new Stripe('sk_test_unused');
  const body = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } });
  const verify = (signature: string | undefined, nowSeconds = NOW, b = body) =>
    VERIFIERS.stripe({
      secret,
      body: enc.encode(b),
      header: headers(signature ? { 'Stripe-Signature': signature } : {}),
      nowSeconds,
    });

  it("takes a header made by Stripe's library, within 300 seconds", async () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: NOW - 299 });
    expect((await verify(header)).ok).toBe(true);
  });

  it('refuses a stale, a future, a wrong and a missing signature', async () => {
    const old = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: NOW - 301 });
    const future = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: NOW + 301 });
    const other = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other', timestamp: NOW });
    expect(await verify(old)).toEqual({ ok: false, reason: 'stale signature' });
    expect((await verify(future)).ok).toBe(false);
    expect(await verify(other)).toEqual({ ok: false, reason: 'wrong signature' });
    expect((await verify(undefined)).ok).toBe(false);
    expect((await verify('t=abc,v1=00')).ok).toBe(false);
  });
});

describe('Standard Webhooks (the webhook platform)', () => {
  const secret = 'whsec_' + Buffer.from('0123456789abcdef01234567').toString('base64');
  const body = JSON.stringify({ type: 'order.created', timestamp: '2026-11-28T10:00:00Z', data: {} });
  const sign = (at: number, id = 'msg_1') => new Webhook(secret).sign(id, new Date(at * 1000), body).toString();
  const verify = (h: Record<string, string>) =>
    VERIFIERS.webhook({ secret, body: enc.encode(body), header: headers(h), nowSeconds: NOW });

  it('takes what the Standard Webhooks library signs, its id as the delivery id', async () => {
    expect(
      await verify({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW), 'webhook-signature': sign(NOW) }),
    ).toEqual({ ok: true, deliveryId: 'msg_1', topic: null });
  });

  it('refuses a stale timestamp, another id and missing headers', async () => {
    const stale = NOW - 301;
    expect(
      (await verify({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(stale), 'webhook-signature': sign(stale) }))
        .ok,
    ).toBe(false);
    expect(
      (await verify({ 'webhook-id': 'msg_2', 'webhook-timestamp': String(NOW), 'webhook-signature': sign(NOW) })).ok,
    ).toBe(false);
    expect((await verify({ 'webhook-id': 'msg_1' })).ok).toBe(false);
  });
});
