// Every event the service emits has exactly the shape the OpenAPI document's `webhooks` gives it
// (routes/webhooks/events.ts), and so has the test event's sample of each type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { EVENT_DATA, type EventName, WebhookEvent } from '../../../functions/_shared/api/routes/webhooks/events.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let worker: TestWorker;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTenant();
  worker = await startWorker([t.org.id]);
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const orgPath = (rest: string) => `/api/v1/organizations/${t.org.id}${rest}`;

/** The event's data, checked against its schema with no key left over. */
function expectShape(type: EventName, data: unknown) {
  const schema = (EVENT_DATA[type] as z.ZodObject).strict();
  const parsed = schema.safeParse(data);
  expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
}

describe('webhook events', () => {
  it(
    'as emitted: review.created, review.moderated, review.verified, review.replied and export.completed',
    { timeout: 60_000 },
    async () => {
      const form = await api('POST', orgPath('/review-forms'), {
        key: t.keys.write,
        body: { name: 'Approved by hand', verification_mode: 'manual' },
      });
      // A review of a product: every review event names it, and an endpoint gets it delivered.
      const product = await api('POST', orgPath('/products'), {
        key: t.keys.write,
        body: { external_id: 'MUG-S', name: '=Mug "small" <b>' },
      });
      const hook = await api('POST', orgPath('/webhooks'), {
        key: t.keys.write,
        body: { url: `${receiver.url}/reviews`, events: ['review.created', 'review.moderated', 'review.verified'] },
      });
      expect(hook.status).toBe(201);
      const submitted = await api('POST', '/api/v1/reviews', {
        body: {
          form_id: form.body.id,
          rating: 4,
          title: 'Good',
          content: 'Good coffee',
          reviewer_name: 'Ann',
          reviewer_email: 'ann@example.com',
          product_external_id: 'MUG-S',
        },
      });
      expect(submitted.status).toBe(201);
      const reviewId = submitted.body.id;
      expect(
        (await api('PATCH', orgPath(`/reviews/${reviewId}/moderate`), {
          key: t.keys.write,
          body: { action: 'hide', reason: 'Checking' },
        })).status,
      ).toBe(200);
      expect(
        (await api('POST', orgPath('/verification/approve'), {
          key: t.keys.write,
          body: { review_id: reviewId, reason: 'Receipt seen' },
        })).status,
      ).toBe(200);
      expect(
        (await api('PUT', orgPath(`/reviews/${reviewId}/reply`), {
          key: t.keys.write,
          body: { content: 'Thank you!' },
        })).status,
      ).toBe(200);
      const job = await api('POST', orgPath('/exports'), { key: t.keys.write, body: { format: 'json' } });
      await eventually(
        async () =>
          (await db`select 1 from plaudit.events where type = 'export.completed' and data ->> 'id' = ${job.body.id}`)
            .length === 1,
        30_000,
        'export.completed',
      );
      const events = await db<{ type: EventName; data: unknown; created_at: Date }[]>`
      select type, data, created_at from plaudit.events where org_id = ${t.org.id} order by created_at`;
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.moderated',
        'review.verified',
        'review.replied',
        'export.completed',
      ]);
      for (const e of events) {
        expectShape(e.type, e.data);
        expect(WebhookEvent.safeParse({ event: e.type, timestamp: e.created_at.toISOString(), data: e.data }).success)
          .toBe(true);
      }
      const named = { id: product.body.id, external_id: 'MUG-S', name: '=Mug "small" <b>' };
      expect(submitted.body.product).toEqual(named);
      for (const e of events.filter((e) => e.type.startsWith('review.'))) {
        expect((e.data as { product: unknown }).product, e.type).toEqual(named);
      }
      const delivered = await receiver.waitFor(3, 30_000, (r) => r.path === '/reviews');
      // Deliveries run side by side: compared in the events' names' order.
      expect(delivered.map((r) => JSON.parse(r.body)).map((b) => [b.event, b.data.product]).sort()).toEqual([
        ['review.created', named],
        ['review.moderated', named],
        ['review.verified', named],
      ]);
    },
  );

  it('as emitted: review.reported, delivered with the review it names', { timeout: 60_000 }, async () => {
    const hook = await api('POST', orgPath('/webhooks'), {
      key: t.keys.write,
      body: { url: `${receiver.url}/reported`, events: ['review.reported'] },
    });
    expect(hook.status).toBe(201);
    const form = await api('POST', orgPath('/review-forms'), { key: t.keys.write, body: { name: 'Open' } });
    const submitted = await api('POST', '/api/v1/reviews', {
      body: {
        form_id: form.body.id,
        rating: 1,
        content: 'Buy followers at example.net',
        reviewer_name: 'Bot',
        reviewer_email: 'bot@example.com',
      },
    });
    expect(submitted.status).toBe(201);
    const reported = await api('POST', `/api/v1/public/reviews/${t.org.slug}/${submitted.body.id}/reports`, {
      body: { reason: 'spam', details: 'A link to buy followers' },
    });
    expect(reported.status).toBe(202);
    const [event] = await db<{ data: unknown }[]>`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'review.reported'`;
    expectShape('review.reported', event.data);
    const [delivery] = await receiver.waitFor(1, 30_000, (r) => r.path === '/reported');
    const body = JSON.parse(delivery.body);
    expect(body.event).toBe('review.reported');
    expect(body.data).toMatchObject({
      id: submitted.body.id,
      product: null,
      reason: 'spam',
      details: 'A link to buy followers',
      kind: 'policy',
      legal_ground: null,
    });
  });

  it('as sampled by the test route, for every type', async () => {
    const hook = await api('POST', orgPath('/webhooks'), {
      key: t.keys.write,
      body: { url: `${receiver.url}/hook`, events: ['*'] },
    });
    expect(hook.status).toBe(201);
    for (const type of Object.keys(EVENT_DATA) as EventName[]) {
      const res = await api('POST', orgPath(`/webhooks/${hook.body.id}/test`), {
        key: t.keys.write,
        body: { event: type },
      });
      expect(res.status, type).toBe(200);
      const [delivery] = await db`select payload from plaudit.webhook_deliveries where id = ${res.body.id}`;
      const body = JSON.parse(delivery.payload);
      expect(body.event).toBe(type);
      expectShape(type, body.data);
    }
  });
});
