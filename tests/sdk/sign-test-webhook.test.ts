// signTestWebhook builds the delivery the service would send: verifyWebhook accepts it, the
// service's own verification accepts it, and the database's signing function (which signs the
// real deliveries) computes the very same headers for the same body, id and time.
import { describe, expect, it } from 'vitest';
import { db } from '../helpers/db.ts';
import { signTestWebhook, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../../sdk/src/index.ts';
import { deliveryHeaders, type SignedDelivery } from '../../functions/_shared/core/webhooks/send.ts';
import { verifyHexSignature, verifyStandardSignature } from '../../functions/_shared/core/webhooks/signing.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 30, 45, 123);
const newSecret = async (): Promise<string> => (await db`select plaudit.new_webhook_secret() as s`)[0].s;
const created = {
  event: 'review.created',
  data: { id: '00000000-0000-4000-8000-000000000001', rating: 5, content: 'Süper 👍 "quoted"' },
} as unknown as WebhookEvent;

describe('signTestWebhook', () => {
  it('round-trips through verifyWebhook, by either signature, and fills in the time', async () => {
    const secret = await newSecret();
    const { body, headers } = await signTestWebhook(created, secret, { now: NOW });
    expect(JSON.parse(body)).toEqual({ ...created, timestamp: '2026-01-15T12:30:45.123Z' });
    expect(Object.keys(JSON.parse(body))).toEqual(['event', 'timestamp', 'data']);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      'webhook-timestamp': String(Math.floor(NOW / 1000)),
      'x-webhook-event': 'review.created',
      'x-webhook-attempt': '1',
    });
    const event = await verifyWebhook(body, headers, secret, { now: NOW });
    expect(event).toEqual(JSON.parse(body));
    expect(await verifyWebhook(body, headers, secret, { now: NOW, scheme: 'hex' })).toEqual(event);
    const { 'webhook-signature': _, ...hexOnly } = headers;
    expect(await verifyWebhook(body, hexOnly, secret, { now: NOW })).toEqual(event);
    // Another secret, a changed body, an old delivery: refused.
    await expect(verifyWebhook(body, headers, await newSecret(), { now: NOW })).rejects.toThrow('No signature matches');
    await expect(verifyWebhook(body.replace('5', '1'), headers, secret, { now: NOW })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
    await expect(verifyWebhook(body, headers, secret, { now: NOW + 301_000 })).rejects.toThrow('too old');
  });

  it('signs a raw body as it is, with the given id and attempt, and with the previous secret during a rotation', async () => {
    const [secret, previous] = [await newSecret(), await newSecret()];
    const raw = '{"event":"webhook.test","timestamp":"2026-01-15T12:00:00.000Z","data":{"webhook_id":"w"}}';
    const { body, headers } = await signTestWebhook(raw, secret, {
      id: 'msg_fixed',
      now: new Date(NOW),
      previousSecret: previous,
      attempt: 3,
    });
    expect(body).toBe(raw);
    expect(headers).toMatchObject({
      'webhook-id': 'msg_fixed',
      'x-webhook-event': 'webhook.test',
      'x-webhook-attempt': '3',
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of [secret, previous]) {
      expect((await verifyWebhook(body, headers, s, { now: NOW })).event).toBe('webhook.test');
      expect((await verifyWebhook(body, headers, s, { now: NOW, scheme: 'hex' })).event).toBe('webhook.test');
    }
    expect((await signTestWebhook('not json', secret)).headers['x-webhook-event']).toBe('');
    await expect(signTestWebhook(raw, 'whsec_%%%')).rejects.toThrow(new TypeError('The secret is not a whsec_ secret'));
  });

  it("matches the database's signatures of real deliveries, header for header", async () => {
    const [secret, previous] = [await newSecret(), await newSecret()];
    const [{ body }] = await db`
      select plaudit.webhook_payload('review.created', ${new Date(NOW)}, ${db.json(created.data as never)}) as body`;
    const timestamp = Math.floor(NOW / 1000);
    const [signed] = await db`
      select * from plaudit.webhook_signatures(${secret}, ${previous}, now() + interval '1 hour',
                                               'msg_db', ${timestamp}, ${body})`;
    const ours = await signTestWebhook(created, secret, { id: 'msg_db', now: NOW, previousSecret: previous });
    expect(ours.body).toBe(body);
    const theirs = deliveryHeaders({
      message_id: 'msg_db',
      webhook_timestamp: timestamp,
      signature_hex: signed.signature_hex,
      previous_signature_hex: signed.previous_signature_hex,
      webhook_signature: signed.webhook_signature,
      event_type: 'review.created',
      attempt: 1,
    } as SignedDelivery);
    expect(ours.headers).toEqual(theirs);
  });

  it("passes the service's own verification", async () => {
    const secret = await newSecret();
    const { body, headers } = await signTestWebhook(created, secret, { now: NOW });
    expect(await verifyHexSignature(secret, body, headers['x-webhook-signature'])).toBe(true);
    expect(
      await verifyStandardSignature(secret, body, {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
      }, { nowSeconds: Math.floor(NOW / 1000) }),
    ).toBe(true);
  });
});
