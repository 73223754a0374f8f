// One Review shape: every operation of the OpenAPI document that answers the organization's Review
// (one, a page of them, or a JSON export's array) is called here, and each Review it answers is
// validated against the document's own schema, key for key and in the schema's order. An operation
// that starts answering a Review without a call below fails the first test.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { addMember, asSession, personEmail, signIn } from '../../helpers/sessions.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';
import type { TestWorker } from '../../helpers/worker.ts';
import { mailWorker } from '../../helpers/review-requests.ts';
import { eventually } from '../../helpers/receiver.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';

const server = ownApiServer();
const call = server.call;

type Body = Record<string, unknown>;
type Answer = { status: number; body: unknown };

let t: Tenant;
let doc: any;
let worker: TestWorker;
const ids: Record<string, string> = {};
afterAll(async () => await worker.stop());

beforeAll(async () => {
  t = await createTenant();
  // Sends the sign-in mail and runs the export.
  worker = await mailWorker([t.org.id]);
  doc = (await call('GET', '/api/v1/openapi.json')).body;
  const open = await createForm(call, t, {
    custom_fields: [{ key: 'size', label: 'Size', type: 'text' }, { key: 'again', label: 'Again?', type: 'boolean' }],
  });
  const manual = await createForm(call, t, { verification_mode: 'manual' });
  const proof = await createForm(call, t, { verification_mode: 'purchase_proof' });
  ids.open = open.id;
  // A review of a product, so that the shape is checked with `product` written out.
  const product = await call('POST', `/api/v1/organizations/${t.org.id}/products`, {
    key: t.keys.write,
    body: { external_id: 'SHAPE-MUG', name: 'Mug «tall»' },
  });
  expect(product.status).toBe(201);
  ids.replied = (await submitOk(call, open.id, {
    custom_fields: { size: 'L "tall"', again: true },
    product_external_id: 'SHAPE-MUG',
  })).id;
  // A photo on it, so that the shape is checked with `media` written out.
  const photo = await upload(ids.replied, await jpegWithGps(60, 40), { key: t.keys.write, baseUrl: server.url });
  expect(photo.status).toBe(201);
  ids.media = photo.body.id;
  ids.approve = (await submitOk(call, manual.id)).id;
  ids.reject = (await submitOk(call, manual.id)).id;
  ids.proof = (await submitOk(call, proof.id, { reviewer_email: 'order@example.com' })).id;
  const orders = await call('POST', `/api/v1/organizations/${t.org.id}/orders`, {
    key: t.keys.write,
    body: { orders: [{ order_id: 'A-1', email: 'order@example.com' }] },
  });
  expect(orders.status).toBe(200);
});

const org = () => `/api/v1/organizations/${t.org.id}`;
const asKey = (method: string, path: string, body?: Body) =>
  call(method, path, { key: method === 'GET' ? t.keys.read : t.keys.write, body }) as Promise<Answer>;

/** How each operation that answers a Review is called, and where its Reviews are in the answer. */
const CALLS: Record<string, { call: () => Promise<Answer>; reviews: (body: any) => unknown[] }> = {
  'reviews.submit': {
    call: () =>
      call('POST', '/api/v1/reviews', {
        body: {
          form_id: ids.open,
          rating: 4,
          title: null,
          content: 'Fine.',
          reviewer_name: 'Bo',
          reviewer_email: 'bo@example.com',
        },
        headers: { 'x-forwarded-for': '198.51.100.77' },
      }),
    // The Review, and beside it the token to add photos and videos (tests/media/api/review-media-upload.test.ts).
    reviews: ({ media_upload: _, ...review }) => [review],
  },
  'reviews.reply': {
    call: () => asKey('PUT', `${org()}/reviews/${ids.replied}/reply`, { content: 'Thank you — «really».' }),
    reviews: (b) => [b],
  },
  'reviews.get': { call: () => asKey('GET', `${org()}/reviews/${ids.replied}`), reviews: (b) => [b] },
  'reviews.list': { call: () => asKey('GET', `${org()}/reviews`), reviews: (b) => b.data },
  'reviews.listForKey': { call: () => asKey('GET', '/api/v1/reviews?min_rating=1&limit=50'), reviews: (b) => b.data },
  'reviews.moderateMedia': {
    call: () =>
      asKey('PATCH', `${org()}/reviews/${ids.replied}/media/${ids.media}/moderate`, {
        action: 'hide',
        reason: 'A face',
      }),
    reviews: (b) => [b],
  },
  'reviews.moderate': {
    call: () => asKey('PATCH', `${org()}/reviews/${ids.replied}/moderate`, { action: 'hide', reason: 'Test' }),
    reviews: (b) => [b],
  },
  'verification.verify': {
    call: () => asKey('POST', `${org()}/verification/verify`, { review_id: ids.proof, order_id: 'A-1' }),
    reviews: (b) => [b],
  },
  'verification.approve': {
    call: () => asKey('POST', `${org()}/verification/approve`, { review_id: ids.approve }),
    reviews: (b) => [b],
  },
  'verification.reject': {
    call: () => asKey('POST', `${org()}/verification/reject`, { review_id: ids.reject, reason: 'Not ours' }),
    reviews: (b) => [b],
  },
  'exports.download': {
    call: async () => {
      const job = await asKey('POST', `${org()}/exports`, { format: 'json', filters: { include_hidden: true } });
      expect(job.status).toBe(201);
      const id = (job.body as { id: string }).id;
      await eventually(
        async () => {
          const state = await asKey('GET', `${org()}/exports/${id}`);
          return (state.body as { status: string }).status === 'completed';
        },
        60_000,
        'the export',
      );
      return asKey('GET', `${org()}/exports/${id}/download`);
    },
    reviews: (b) => b,
  },
};

/** The operations whose success answer holds a Review, by the document's own references. */
function operationsAnsweringReviews(): string[] {
  const found: string[] = [];
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      const success = Object.entries<any>(op?.responses ?? {}).filter(([code]) => code.startsWith('2'));
      // The submission answers the Review with its upload token beside it (SubmittedReview).
      if (success.some(([, r]) => /"#\/components\/schemas\/(Submitted)?Review"/.test(JSON.stringify(r)))) {
        found.push(op.operationId);
      }
    }
  }
  return found.sort();
}

describe("the organization's Review", () => {
  it('is answered by exactly the operations this test calls', () => {
    expect(operationsAnsweringReviews()).toEqual(Object.keys(CALLS).sort());
  });

  it('reads the same for a member signed in to the dashboard as for a key', async () => {
    const email = personEmail('shape');
    await addMember(t, email, 'member');
    const session = await signIn(email);
    const byKey = await asKey('GET', `${org()}/reviews/${ids.replied}`);
    const bySession = await asSession(session, 'GET', `${org()}/reviews/${ids.replied}`);
    expect(byKey.status).toBe(200);
    expect(bySession.body).toEqual(byKey.body);
  });

  it("is the same shape from every one of them, as the contract's schema says", { timeout: 120_000 }, async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // The formats the document names, as RFC 9562 and RFC 3339 define them.
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat(
      'date-time',
      (s: string) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
    );
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const validate = ajv.getSchema('openapi#/components/schemas/Review')!;
    const keys = Object.keys(doc.components.schemas.Review.properties);
    const problems: string[] = [];
    let checked = 0;
    for (const [operation, { call: send, reviews }] of Object.entries(CALLS)) {
      const res = await send();
      if (res.status >= 300) {
        problems.push(`${operation}: answered ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const list = reviews(res.body);
      if (list.length === 0) problems.push(`${operation}: answered no Review`);
      for (const review of list) {
        checked++;
        if (!validate(review)) problems.push(`${operation}: ${ajv.errorsText(validate.errors)}`);
        if (JSON.stringify(Object.keys(review as Body)) !== JSON.stringify(keys)) {
          problems.push(`${operation}: keys ${Object.keys(review as Body).join(',')}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(Object.keys(CALLS).length);
  });
});
