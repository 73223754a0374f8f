// Products of a tenant's catalog, made over HTTP for tests of what refers to them.
import { expect } from 'vitest';
import type { Tenant } from './db.ts';
import type { Call } from './reviews.ts';

export type Product = {
  id: string;
  external_id: string;
  name: string;
  review_count: number;
  average_rating: number | null;
};

let serial = 0;

/** A product of `t`'s catalog: a fresh external id and name unless the body gives them. */
export async function createProduct(call: Call, t: Tenant, body: Record<string, unknown> = {}): Promise<Product> {
  serial += 1;
  const res = await call('POST', `/api/v1/organizations/${t.org.id}/products`, {
    key: t.keys.write,
    body: { external_id: `PR-${serial}-${Math.random().toString(36).slice(2, 8)}`, name: `Product ${serial}`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
