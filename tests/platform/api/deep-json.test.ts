// A JSON body nested thousands of levels deep fits in a few kilobytes. Every route answers one
// nested past MAX_JSON_DEPTH with 400 naming the body, before anything parses or walks it
// (docs/design.md, Limits), and no shape of body, however deep or wide, gets a 5xx.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../functions/_shared/api/middleware/text-guard/json-depth.ts';
import { standardSignature } from '../../../functions/_shared/core/webhooks/signing.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { type Operation, operations } from '../../helpers/openapi-operations.ts';
import { createForm, ownApiServer, reviewBody } from '../../helpers/reviews.ts';

// A server of its own, with a per-IP allowance for hundreds of calls (as hostile-input's).
const server = ownApiServer({
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
  SUBMIT_RATE_LIMIT_PER_MINUTE: '1000000',
  EMAIL_WEBHOOK_SECRET: inject('emailWebhookSecret'),
});

const TOO_DEEP = `body: must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
const BODY_LIMIT = 64 * 1024;

type Kind = 'array' | 'object';

/**
 * JSON text `depth` levels deep, written without recursion (JSON.stringify itself overflows on
 * such values): level i is an array or an object after `kinds`, holding `siblings` values before
 * the next level; the innermost level holds `inner`.
 */
function nested(depth: number, kinds: Kind[], inner: string, siblings: string[][] = [[]]): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    const kind = kinds[i % kinds.length];
    const before = siblings[i % siblings.length];
    if (kind === 'array') {
      open.push(`[${before.map((v) => `${v},`).join('')}`);
      close.push(']');
    } else {
      open.push(`{${before.map((v, j) => `${JSON.stringify(`s${j}`)}:${v},`).join('')}"k":`);
      close.push('}');
    }
  }
  return open.join('') + inner + close.reverse().join('');
}

const deep = (depth: number) => nested(depth, ['object', 'array'], '1');

let tenant: Tenant;
let formId: string;

beforeAll(async () => {
  tenant = await createTenant({ rateLimit: 100_000 });
  formId = (await createForm(server.call, tenant)).id;
});

async function counts() {
  const [row] = await db`
    select (select count(*) from plaudit.reviews where org_id = ${tenant.org.id})::integer as reviews,
           (select count(*) from plaudit.events where org_id = ${tenant.org.id})::integer as events,
           (select count(*) from plaudit.webhook_endpoints where org_id = ${tenant.org.id})::integer as endpoints,
           (select name from plaudit.organizations where id = ${tenant.org.id}) as name`;
  return row;
}

async function postJson(path: string, body: string, headers: Record<string, string> = {}) {
  return server.call('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('a body nested 10,000 levels deep', () => {
  it('answers 400 naming the body on API routes, and changes nothing', async () => {
    const before = await counts();
    const review = JSON.stringify(reviewBody(formId)).replace(/}$/, `,"custom_fields":${deep(10_000)}}`);
    expect(review.length).toBeLessThan(BODY_LIMIT);
    const answers = [
      await postJson('/api/v1/reviews', review),
      await server.call('PATCH', `/api/v1/organizations/${tenant.org.id}`, {
        key: tenant.keys.admin,
        rawBody: `{"name":"Renamed","website":${deep(10_000)}}`,
        headers: { 'content-type': 'application/json' },
      }),
      await postJson(`/api/v1/organizations/${tenant.org.id}/webhooks`, deep(10_000), {
        authorization: `Bearer ${tenant.keys.admin}`,
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: TOO_DEEP,
        errors: [{ field: 'body', code: 'invalid', message: TOO_DEEP.slice('body: '.length) }],
      });
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 400 on the e-mail events webhook, signed or not', async () => {
    const body = deep(10_000);
    const id = `msg_${crypto.randomUUID()}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const signed = await postJson('/api/v1/email-events', body, {
      'svix-id': id,
      'svix-timestamp': String(timestamp),
      'svix-signature': await standardSignature(inject('emailWebhookSecret'), id, timestamp, body),
    });
    expect(signed.status).toBe(400);
    expect(signed.body.message).toBe(TOO_DEEP);
    const unsigned = await postJson('/api/v1/email-events', body);
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.message).toBe(TOO_DEEP);
  });

  it('answers 400 on the hosted form when sent as JSON, and stores no review', async () => {
    const before = await counts();
    const res = await postJson(`/forms/${formId}`, deep(10_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', TOO_DEEP));
    expect(await counts()).toEqual(before);
  });

  it('lets a body exactly at the limit through to the route', async () => {
    const res = await server.call('PATCH', `/api/v1/organizations/${tenant.org.id}`, {
      key: tenant.keys.admin,
      rawBody: `{"name":${nested(MAX_JSON_DEPTH - 1, ['array'], '"x"')}}`,
      headers: { 'content-type': 'application/json' },
    });
    // The route's own validation answers: the name is no string.
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'name' })]);
  });
});

describe('deep and wide bodies to every JSON route', () => {
  let ops: Operation[];

  beforeAll(async () => {
    const doc = await server.call('GET', '/api/v1/openapi.json');
    ops = operations(doc.body).filter((o) => o.bodyProperties);
    // The hosted pages' forms take urlencoded bodies; a client may still send JSON.
    for (const path of ['/forms/{formId}', '/r/{token}', '/invitations/{token}', '/verify/{token}']) {
      ops.push({ method: 'POST', path, pathParams: [], queryParams: [], bodyProperties: [] });
    }
  });

  // Strings holding brackets, quotes and escapes, so that only the structure counts.
  const scalar = fc.oneof(
    fc.constantFrom('0', 'null', 'true', '"["', '"]}"', '"\\"[{"', '"\\\\"', '"\\u005b"', '"{{{{"'),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  );
  const body = fc.record({
    depth: fc.oneof(fc.integer({ min: 1, max: MAX_JSON_DEPTH }), fc.integer({ min: MAX_JSON_DEPTH + 1, max: 4000 })),
    kinds: fc.array(fc.constantFrom<Kind>('array', 'object'), { minLength: 1, maxLength: 8 }),
    siblings: fc.array(fc.array(scalar, { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
    // The innermost value: a scalar, or an object thousands of keys wide.
    wide: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })),
    leaf: scalar,
    // The whole body, or one of the operation's properties.
    asProperty: fc.option(fc.nat(), { nil: undefined }),
    op: fc.nat(),
  });

  it('never answer 5xx, and refuse what is too deep with 400 naming the body', async () => {
    await fc.assert(
      fc.asyncProperty(body, async ({ depth, kinds, siblings, wide, leaf, asProperty, op: index }) => {
        const op = ops[index % ops.length];
        const inner = wide
          ? `{${Array.from({ length: wide }, (_, i) => `"k${i}":${i % 7 ? i : leaf}`).join(',')}}`
          : leaf;
        const value = nested(depth, kinds, inner, siblings);
        const props = op.bodyProperties!;
        const text = asProperty !== undefined && props.length
          ? `{${JSON.stringify(props[asProperty % props.length])}:${value}}`
          : value;
        const totalDepth = depth + (wide ? 1 : 0) + (text === value ? 0 : 1);
        const path = op.path.replace(
          /\{(\w+)\}/g,
          (_, name) => name === 'orgId' ? tenant.org.id : name === 'formId' ? formId : crypto.randomUUID(),
        );
        const res = await server.call(op.method, path, {
          key: tenant.keys.admin,
          rawBody: text,
          headers: { 'content-type': 'application/json' },
        });
        const where = `${op.method} ${path} depth ${totalDepth}, ${text.length} characters`;
        expect(res.status, where).toBeLessThan(500);
        if (text.length > BODY_LIMIT) return;
        if (totalDepth > MAX_JSON_DEPTH) {
          expect(res.status, where).toBe(400);
          expect(res.body?.message, where).toBe(TOO_DEEP);
        }
        if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
          expect(res.body, where).toEqual(errorBody(res.status, String(res.body?.error)));
        }
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
