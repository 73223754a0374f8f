// Property-based: for any input to any route of the OpenAPI document (NUL characters, unpaired
// surrogates, huge or negative numbers, wrong types, deep or empty bodies), the API answers below
// 500, and every error carries the contract's body. Routes come from the served document, so a
// new route is covered the day it is declared.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { ownApiServer } from '../../helpers/reviews.ts';
import { errorBody } from '../../helpers/http.ts';
import { type Operation, operations } from '../../helpers/openapi-operations.ts';

// A server of its own, with a per-IP allowance for thousands of calls: the shared one's budget
// for 127.0.0.1 belongs to the other files running beside this one.
const server = ownApiServer({
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
  SUBMIT_RATE_LIMIT_PER_MINUTE: '1000000',
  EMAIL_WEBHOOK_SECRET: inject('emailWebhookSecret'),
});

const hostileText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\ud83d',
    '2147483648',
    '-1',
    '0',
    '1e309',
    '99999999999999999999',
    'NaN',
    '',
    ' ',
    '%00',
    '../..',
    '<script>',
    '\u202e',
    '😀',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText,
    fc.integer(),
    fc.constantFrom(2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 1e308, -0, 0.5),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Percent-encodes a string's UTF-8 bytes (a lone surrogate becomes U+FFFD, as any client sends it). */
function encodeSegment(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((
      b,
    ) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)
    )
    .join('');
}

/** Path segments as they travel: encoded text, or raw escapes no encoder would write. */
const hostileSegment = fc.oneof(
  hostileText.map(encodeSegment),
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%FF', '%C0%80', '%', '%zz'),
);

let tenant: Tenant;
let ops: Operation[];

beforeAll(async () => {
  tenant = await createTenant({ rateLimit: 100_000 });
  const doc = await server.call('GET', '/api/v1/openapi.json');
  ops = operations(doc.body);
});

describe('hostile input to every route', () => {
  it('covers the routes of the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(40);
    expect(ops.some((o) => o.bodyProperties && o.bodyProperties.length > 3)).toBe(true);
  });

  it('answers below 500, with the error body on every error', async () => {
    const input = fc.record({
      op: fc.integer({ min: 0, max: 10_000 }),
      orgIsOwn: fc.boolean(),
      pathValues: fc.array(hostileSegment, { minLength: 3, maxLength: 3 }),
      query: fc.array(fc.tuple(fc.nat(), hostileText), { maxLength: 3 }),
      body: fc.oneof(
        fc.array(fc.tuple(fc.nat(), hostileValue), { maxLength: 5 }),
        hostileValue.map((v) => [[-1, v]] as [number, unknown][]),
      ),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ op: index, orgIsOwn, pathValues, query, body }) => {
        const op = ops[index % ops.length];
        let i = 0;
        const path = op.path.replace(
          /\{(\w+)\}/g,
          (_, name) => name === 'orgId' && orgIsOwn ? tenant.org.id : pathValues[i++ % 3],
        );
        const search = new URLSearchParams();
        for (const [n, v] of query) {
          if (op.queryParams.length) search.append(op.queryParams[n % op.queryParams.length], v);
        }
        let json: unknown;
        if (op.bodyProperties) {
          const props = op.bodyProperties;
          json = body.length === 1 && body[0][0] === -1
            ? body[0][1]
            : Object.fromEntries(body.map(([n, v]) => [props.length ? props[n % props.length] : `f${n}`, v]));
        }
        const res = await server.call(op.method, `${path}${search.size ? `?${search}` : ''}`, {
          key: tenant.keys.admin,
          body: json,
        });
        const where = `${op.method} ${path}?${search} ${JSON.stringify(json)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
          if (op.path === '/api/v1/mcp' && res.body?.jsonrpc === '2.0') {
            // The MCP endpoint speaks JSON-RPC: its refusals are JSON-RPC errors, as the protocol has them.
            expect(res.body, where).toMatchObject({ error: { code: expect.any(Number), message: expect.any(String) } });
          } else {
            expect(res.body, where).toEqual(errorBody(res.status, String(res.body?.error)));
          }
        }
      }),
      { numRuns: 2000 },
    );
  }, 120_000);
});
