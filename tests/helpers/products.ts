// Products of a tenant's catalog, made over HTTP for tests of what refers to them: one at a time,
// or the catalog's bulk sync in one call, as a business's shop would send it.
import { expect } from 'vitest';
import type { Tenant } from './db.ts';
import type { Call } from './reviews.ts';
import { api } from './http.ts';

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

/** The catalog's bulk sync of `products`, all accepted. */
export async function syncProducts(t: Tenant, products: Record<string, unknown>[], baseUrl?: string) {
  const res = await api('PUT', `/api/v1/organizations/${t.org.id}/products`, {
    key: t.keys.write,
    body: { products },
    baseUrl,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.rejected).toEqual([]);
}
