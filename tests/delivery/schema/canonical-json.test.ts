// plaudit.canonical_json writes webhook bodies: what a receiver gets must be byte-identical to
// JSON.stringify(JSON.parse(body)), so that re-serializing a parsed body digests the same bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db } from '../../helpers/db.ts';

async function canonicalOf(jsonText: string): Promise<string> {
  const [row] = await db<{ text: string }[]>`select plaudit.canonical_json(${jsonText}::text::jsonb) as text`;
  return row.text;
}
const canonical = (value: unknown) => canonicalOf(JSON.stringify(value));

// Text PostgreSQL can hold (no NUL; whole code points), numbers JavaScript writes without an
// exponent (between 1e-6 and 1e21), keys that JavaScript reorders (integer-like) among others.
const text = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
const key = fc.oneof(text, fc.nat({ max: 5000 }).map(String), fc.constantFrom('10', '9', '01', '-1', '4294967295'));
const number = fc.oneof(
  fc.integer(),
  fc.double({ min: -1e15, max: 1e15, noNaN: true, noDefaultInfinity: true })
    .filter((n) => !Object.is(n, -0) && (n === 0 || Math.abs(n) >= 1e-6)),
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(key, tie('json'), { maxKeys: 5 }),
  ),
}));

describe('plaudit.canonical_json', () => {
  it('writes what JSON.stringify writes for the value it parses to', async () => {
    await fc.assert(
      fc.asyncProperty(json, async (value) => {
        const body = await canonical(value);
        expect(body).toBe(JSON.stringify(JSON.parse(body)));
        expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('orders keys as JavaScript does and writes numbers without trailing zeros', async () => {
    expect(await canonicalOf('{ "b": 1, "a": [1.50, 2.0, -0.25, 1e3], "10": true, "9": "x", "é\\"\\n": null }')).toBe(
      '{"9":"x","10":true,"a":[1.5,2,-0.25,1000],"b":1,"é\\"\\n":null}',
    );
  });
});
