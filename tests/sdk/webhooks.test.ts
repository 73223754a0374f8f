// Webhooks with the SDK: endpoints and deliveries through the API, and verifyWebhook on what a
// local receiver really got from the API's test sends and from the worker.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { eventually, type ReceivedRequest, type Receiver, startReceiver } from '../helpers/receiver.ts';
import { postReviews } from '../helpers/reviews.ts';
import { startWorker } from '../helpers/worker.ts';
import { type Plaudit, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../../sdk/src/index.ts';
import { client } from './helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

let t: Tenant;
let plaudit: Plaudit;
beforeAll(async () => {
  t = await createTenant();
  plaudit = client(t, 'write');
});

async function receiver(respond?: Receiver['respond']) {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

/** The headers as a Node server hands them over, minus some. */
function without(req: ReceivedRequest, ...names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!names.includes(k) && typeof v === 'string') out[k] = v;
  return out;
}

const STANDARD = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
const HEX = ['x-webhook-signature', 'x-webhook-signature-previous'];

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as Error).message;
}

describe('webhook endpoints', () => {
  it('creates, lists, gets, updates, tests, reads deliveries, redelivers, rotates and deletes', async () => {
    const r = await receiver();
    const hook = await plaudit.webhooks.create({
      url: `${r.url}/hooks`,
      events: ['review.created'],
      description: 'SDK',
    });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await plaudit.webhooks.list()).data.map((h) => h.id)).toContain(hook.id);
    expect(JSON.stringify(await plaudit.webhooks.get(hook.id))).not.toContain(hook.secret);
    expect(await plaudit.webhooks.update(hook.id, { events: ['*'] })).toMatchObject({ events: ['*'] });

    const delivery = await plaudit.webhooks.test(hook.id);
    expect(delivery).toMatchObject({ event: 'webhook.test', status: 'succeeded', is_test: true });
    const [req] = await r.waitFor(1);
    const event = await verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret);
    expect(event.event).toBe('webhook.test');
    if (event.event === 'webhook.test') expect(event.data.webhook_id).toBe(hook.id);

    const sample = await plaudit.webhooks.test(hook.id, { event: 'review.created' });
    expect(sample.event).toBe('review.created');
    const log = await plaudit.webhooks.deliveries(hook.id, { limit: 1 });
    expect(log.meta.total).toBe(2);
    expect(await plaudit.webhooks.deliveries(hook.id).toArray()).toHaveLength(2);
    const detail = await plaudit.webhooks.delivery(hook.id, delivery.id);
    expect(detail.payload).toBe(req.body);

    const worker = await startWorker([t.org.id]);
    cleanups.push(() => worker.stop());
    expect(await plaudit.webhooks.redeliver(hook.id, delivery.id)).toMatchObject({
      id: delivery.id,
      status: 'pending',
    });
    const again = await r.waitFor(3);
    const redelivered = again.find((q, i) => i > 1 && q.headers['webhook-id'] === req.headers['webhook-id']);
    expect(redelivered?.body).toBe(req.body);

    const rotated = await plaudit.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    await plaudit.webhooks.delete(hook.id);
    await expect(plaudit.webhooks.get(hook.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('verifyWebhook on real deliveries', () => {
  it('verifies an event the worker delivered, by both signatures, and answers it typed', async () => {
    const r = await receiver();
    const hook = await plaudit.webhooks.create({ url: r.url, events: ['review.created'] });
    const worker = await startWorker([t.org.id]);
    cleanups.push(() => worker.stop());
    const form = await plaudit.reviewForms.create({ name: 'Hooked' });
    const [reviewId] = await postReviews(form.id, `sdk-hook-${t.org.id}`, [[
      5,
      'Très bien',
      'Süper 👍 "quoted"',
      'Ann',
    ]]);
    const [req] = await r.waitFor(1);

    // Standard Webhooks (chosen when its headers are there), with Headers or a plain object.
    const event: WebhookEvent = await verifyWebhook(
      req.body,
      new Headers(req.headers as Record<string, string>),
      hook.secret,
    );
    expect(event).toMatchObject({
      event: 'review.created',
      data: { id: reviewId, rating: 5, content: 'Süper 👍 "quoted"' },
    });
    if (event.event === 'review.created') expect(event.data.reviewer_name).toBe('Ann');
    expect(
      await verifyWebhook(new TextEncoder().encode(req.body), without(req, ...HEX), hook.secret, {
        scheme: 'standard',
      }),
    ).toEqual(event);
    // The contract's x-webhook-signature alone.
    expect(await verifyWebhook(req.body, without(req, ...STANDARD), hook.secret)).toEqual(event);
    expect(await verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret, { scheme: 'hex' }))
      .toEqual(event);

    // A tampered body fails either way; so does another secret.
    const tampered = req.body.replace(/"rating": ?5/, '"rating": 1');
    expect(tampered).not.toBe(req.body);
    expect(await refusal(verifyWebhook(tampered, req.headers as Record<string, string>, hook.secret)))
      .toBe('No signature matches');
    expect(await refusal(verifyWebhook(tampered, without(req, ...STANDARD), hook.secret))).toBe('No signature matches');
    const other = await plaudit.webhooks.create({ url: r.url, events: ['export.completed'] });
    expect(await refusal(verifyWebhook(req.body, req.headers as Record<string, string>, other.secret)))
      .toBe('No signature matches');

    // Old or future timestamps are refused (replays), within the tolerance they pass.
    const sent = Number(req.headers['webhook-timestamp']) * 1000;
    expect(
      await refusal(verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret, {
        now: sent + 301_000,
      })),
    ).toBe('The webhook-timestamp is too old');
    expect(
      await refusal(verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret, {
        now: new Date(sent - 301_000),
      })),
    ).toBe('The webhook-timestamp is in the future');
    await expect(verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret, {
      now: sent + 3_000_000,
      toleranceSeconds: 3600,
    })).resolves.toEqual(event);
    const forged = { ...without(req), 'webhook-timestamp': String(Math.floor(Date.now() / 1000) + 5) };
    expect(await refusal(verifyWebhook(req.body, forged, hook.secret))).toBe('No signature matches');
    expect(await refusal(verifyWebhook(req.body, without(req, 'webhook-id'), hook.secret, { scheme: 'standard' })))
      .toMatch(/Missing/);
    expect(await refusal(verifyWebhook(req.body, without(req, ...STANDARD, ...HEX), hook.secret)))
      .toBe('No webhook signature header');
  });

  it('an export.completed event from the worker carries the download URL of the job', async () => {
    const r = await receiver();
    const hook = await plaudit.webhooks.create({ url: r.url, events: ['export.completed'] });
    const worker = await startWorker([t.org.id]);
    cleanups.push(() => worker.stop());
    const job = await plaudit.exports.createAndWait({ format: 'json' }, { pollIntervalMs: 50 });
    const [req] = await r.waitFor(1);
    const event = await verifyWebhook(req.body, req.headers as Record<string, string>, hook.secret);
    expect(event.event).toBe('export.completed');
    if (event.event !== 'export.completed') return;
    expect(event.data).toMatchObject({ id: job.id, format: 'json', row_count: job.row_count });
    expect(event.data.download_url).toBe(job.download_url);
    const text = await new Response(await plaudit.exports.download(event.data.id)).text();
    expect(JSON.parse(text)).toHaveLength(job.row_count);
  });

  it('accepts either secret while one is rotated out', async () => {
    const r = await receiver();
    const hook = await plaudit.webhooks.create({ url: r.url, events: ['*'] });
    const { secret } = await plaudit.webhooks.rotateSecret(hook.id);
    await plaudit.webhooks.test(hook.id);
    const [req] = await r.waitFor(1);
    expect((req.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const s of [secret, hook.secret]) {
      expect((await verifyWebhook(req.body, req.headers as Record<string, string>, s)).event).toBe('webhook.test');
      expect((await verifyWebhook(req.body, without(req, ...STANDARD), s)).event).toBe('webhook.test');
    }
    expect((await verifyWebhook(req.body, without(req, ...STANDARD), ['whsec_b3RoZXI=', secret])).event)
      .toBe('webhook.test');
    expect(await refusal(verifyWebhook(req.body, req.headers as Record<string, string>, 'whsec_b3RoZXI=')))
      .toBe('No signature matches');
  });
});

describe('verifyWebhook on known answers', () => {
  it('matches the Standard Webhooks reference vector', async () => {
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,bm9ldmVu v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const event = await verifyWebhook('{"test": 2432232314}', headers, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', {
      now: 1614265330_000,
    });
    expect(event).toEqual({ test: 2432232314 });
  });

  it("matches GitHub's vector for the hex signature", async () => {
    const secret = "It's a Secret to Everybody";
    const ok = { 'x-webhook-signature': '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' };
    const err = await verifyWebhook('Hello, World!', ok, secret).then(() => null, (e) => e);
    // The signature matches; the body is just not JSON.
    expect(err).toMatchObject({ message: 'The body is not JSON' });
  });
});

it('the delivery log agrees with what the receiver got from the worker', async () => {
  const r = await receiver();
  const hook = await plaudit.webhooks.create({ url: r.url, events: ['review.created'] });
  const worker = await startWorker([t.org.id]);
  cleanups.push(() => worker.stop());
  const form = await plaudit.reviewForms.create({ name: 'Logged' });
  await postReviews(form.id, `sdk-log-${t.org.id}`, [[4, null, 'Logged delivery', 'Bo']]);
  const delivered = await eventually(
    async () => {
      const page = await plaudit.webhooks.deliveries(hook.id, { status: 'succeeded' });
      return page.data.length ? page.data[0] : null;
    },
    10_000,
    'a succeeded delivery',
  );
  expect(delivered).toMatchObject({ event: 'review.created', attempts: 1, last_status_code: 200 });
  const [req] = await r.waitFor(1);
  expect(req.headers['webhook-id']).toBe(delivered.message_id);
});
