// The request examples of the OpenAPI document are valid requests: the explorer prefills them,
// and an integrator trying the API from it must not meet a 422 caused by the example itself.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';

let t: Tenant;
let doc: any;
beforeAll(async () => {
  t = await createTenant();
  doc = (await api('GET', '/api/v1/openapi.json')).body;
});

/** Examples whose values are checked after validation, beyond the example's control here. */
const CHECKED_LATER: Record<string, { fields: string[]; reason: string }> = {
  'webhooks.create': {
    fields: ['url'],
    reason: "The example's host must resolve to a public address; it does not here.",
  },
};

function resolve(schema: any): any {
  return schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
}

function fill(path: string): string {
  return path
    .replace('{orgId}', t.org.id)
    .replace('{slug}', t.org.slug)
    .replace(/\{[A-Za-z]+\}/g, () => crypto.randomUUID());
}

describe('request examples', () => {
  it('every request body has an example, and the API takes it', { timeout: 60_000 }, async () => {
    const tried: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths) as [string, any][]) {
      for (const [method, op] of Object.entries(ops) as [string, any][]) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        const example = resolve(schema).example;
        expect(example, `${op.operationId}: no example`).toBeDefined();
        const res = await api(method.toUpperCase(), fill(path), {
          key: t.keys.admin,
          body: example,
        });
        tried.push(op.operationId);
        const later = CHECKED_LATER[op.operationId];
        if (later && res.status === 422) {
          expect(res.body.errors.map((e: any) => e.field), op.operationId).toEqual(later.fields);
          continue;
        }
        expect([400, 415, 422], `${op.operationId}: ${res.status} ${JSON.stringify(res.body)}`).not.toContain(
          res.status,
        );
      }
    }
    expect(tried).toEqual(expect.arrayContaining(['reviews.submit', 'reviewForms.create', 'reviewRequests.bulk']));
  });
});
