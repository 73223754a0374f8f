// The examples of sdk/examples, run as a user runs them, against the test server.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { eventually } from '../helpers/receiver.ts';
import { postReviews } from '../helpers/reviews.ts';
import { freePort } from '../../scripts/lib/postgres.mjs';
import { startWorker } from '../helpers/worker.ts';
import { client } from './helpers.ts';

const root = path.resolve(__dirname, '..', '..');
const examples = path.join(root, 'sdk', 'examples');
let t: Tenant;
let formId: string;
let dir: string;

beforeAll(async () => {
  // The examples import @plaudit/sdk, the workspace's built package (npm install builds it).
  if (!fs.existsSync(path.join(root, 'sdk', 'dist', 'index.js'))) {
    execFileSync('npm', ['run', 'build', '-w', '@plaudit/sdk'], { cwd: root, stdio: 'ignore' });
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-examples-'));
  t = await createTenant();
  formId = (await client(t, 'write').reviewForms.create({ name: 'Examples' })).id;
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('examples/sync-reviews-to-csv.mjs', () => {
  it('writes every review, across pages, with hostile text escaped', async () => {
    const texts = Array.from({ length: 105 }, (_, i) => `Review ${i}`);
    texts[7] = 'says "hi", then\nbreaks the line';
    texts[8] = '=HYPERLINK("http://evil.example")';
    await postReviews(formId, `sdk-csv-${t.org.id}`, texts.map((c, i) => [1 + (i % 5), null, c, `N${i}`] as const));
    const file = path.join(dir, 'reviews.csv');
    const out = execFileSync(process.execPath, [path.join(examples, 'sync-reviews-to-csv.mjs'), file], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        PLAUDIT_API_KEY: t.keys.read,
        PLAUDIT_URL: inject('apiUrl'),
        PLAUDIT_ORGANIZATION_ID: t.org.id,
      },
    });
    expect(out).toMatch(/^wrote 105 reviews to .*reviews\.csv \(\d+\/600 requests left\)/);
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv.startsWith('id,created_at,rating,title,content,reviewer_name,verification_status,is_hidden\r\n'))
      .toBe(true);
    expect(csv).toContain('"says ""hi"", then\nbreaks the line"');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(106);
  });
});

describe('examples/webhook-server.mjs', () => {
  let server: ChildProcess;
  let output = '';
  afterAll(() => server?.kill('SIGTERM'));

  it('verifies real deliveries, answers 204, and refuses a forged one', async () => {
    const plaudit = client(t, 'write');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks`;
    const hook = await plaudit.webhooks.create({ url, events: ['review.created'] });
    server = spawn(process.execPath, [path.join(examples, 'webhook-server.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), PLAUDIT_WEBHOOK_SECRET: hook.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    await eventually(async () => output.includes('listening'), 10_000, 'the example server');

    expect(await plaudit.webhooks.test(hook.id)).toMatchObject({ status: 'succeeded', last_status_code: 204 });
    expect(await plaudit.webhooks.test(hook.id, { event: 'review.created' })).toMatchObject({ status: 'succeeded' });
    await eventually(async () => output.includes('new 5-star review from Sample Reviewer'), 5000, 'the event logged');
    expect(output).toContain('webhook.test received');

    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': '00'.repeat(32) },
      body: '{"event":"review.created","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
    });
    expect(forged.status).toBe(400);
    await eventually(async () => output.includes('refused a delivery: No signature matches'), 5000, 'the refusal');
  });
});

describe('examples/medusa-order-subscriber.mjs', () => {
  /** A Medusa order as query.graph answers it. */
  const medusaOrder = (displayId: number) => ({
    id: `order_01J${displayId}`,
    display_id: displayId,
    email: `ada-${displayId}@example.com`,
    created_at: new Date().toISOString(),
    shipping_address: { first_name: 'Ada', last_name: 'Lovelace', country_code: 'gb' },
    items: [{ product_id: 'prod_01MUG', quantity: 2 }, { product_id: null, quantity: 1 }],
  });

  it('posts an order, signed with Standard Webhooks, to a webhook connection: run from a file and as a subscriber', async () => {
    const plaudit = client(t, 'admin');
    const worker = await startWorker([t.org.id]);
    try {
      const shop = await plaudit.connections.create({ platform: 'webhook', name: 'Medusa store' });
      const env = { PLAUDIT_INBOUND_URL: shop.inbound_url, PLAUDIT_SIGNING_SECRET: shop.signing_secret! };
      const file = path.join(dir, 'order.json');
      fs.writeFileSync(file, JSON.stringify(medusaOrder(1001)));
      const script = path.join(examples, 'medusa-order-subscriber.mjs');
      const run = () =>
        execFileSync(process.execPath, [script, file, 'order.placed'], {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, ...env },
        });
      expect(run()).toBe('order.placed of order 1001: accepted\n');
      // The same Medusa event again (the event bus retried): the same webhook-id, nothing changes.
      expect(run()).toBe('order.placed of order 1001: duplicate\n');

      // As Medusa calls it: the event names the order, the container's query reads it.
      const subscriber = await import(pathToFileURL(script).href);
      expect(subscriber.config.event).toEqual(['order.placed', 'order.fulfillment_created', 'order.canceled']);
      const order = medusaOrder(1002);
      const asked: unknown[] = [];
      const container = {
        resolve: (name: string) => {
          expect(name).toBe('query');
          return { graph: async (q: unknown) => (asked.push(q), { data: [order] }) };
        },
      };
      Object.assign(process.env, env);
      await subscriber.default({ event: { name: 'order.fulfillment_created', data: { id: 'ful_01' } }, container });
      expect(asked).toMatchObject([{ entity: 'order', filters: { id: 'ful_01' } }]);

      await eventually(
        async () => (await plaudit.orders.list({ connection_id: shop.id })).data.length === 2,
        15_000,
        'both orders',
      );
      expect(await plaudit.orders.get('1001')).toMatchObject({
        order_id: '1001',
        platform: 'webhook',
        email: 'ada-1001@example.com',
        name: 'Ada Lovelace',
        status: 'created',
        items: [{ product_external_id: 'prod_01MUG', quantity: 2, refunded: false }],
      });
      expect((await plaudit.orders.get('1002')).status).toBe('fulfilled');
    } finally {
      delete process.env.PLAUDIT_INBOUND_URL;
      delete process.env.PLAUDIT_SIGNING_SECRET;
      await worker.stop();
    }
  });
});
