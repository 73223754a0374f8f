// SDK clients on the API under test, one per tenant and scope.
import { inject } from 'vitest';
import { Plaudit, type PlauditOptions } from '../../sdk/src/index.ts';
import type { Tenant } from '../helpers/db.ts';

export function client(t: Tenant, scope: keyof Tenant['keys'] = 'admin', options: PlauditOptions = {}): Plaudit {
  return new Plaudit({ apiKey: t.keys[scope], baseUrl: inject('apiUrl'), organizationId: t.org.id, ...options });
}

/** A client without a key, for the public routes. */
export function publicClient(options: PlauditOptions = {}): Plaudit {
  return new Plaudit({ baseUrl: inject('apiUrl'), ...options });
}

/** The whole text of a byte stream. */
export async function streamText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}
