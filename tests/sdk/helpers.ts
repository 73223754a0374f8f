// SDK clients on the API under test, one per tenant and scope.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, inject } from 'vitest';
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

/**
 * Local HTTP servers for tests that need answers the API never gives: `serve(handler)` starts one
 * and answers its URL; every server is closed after each test.
 */
export function localServers(): (handler: http.RequestListener) => Promise<string> {
  const servers: http.Server[] = [];
  afterEach(async () => {
    while (servers.length) {
      const s = servers.pop()!;
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  return async (handler) => {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}
