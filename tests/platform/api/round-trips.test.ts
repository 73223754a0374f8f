import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../../scripts/lib/api-server.mjs';
import { freePort } from '../../../scripts/lib/postgres.mjs';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: a round trip starts each time the
 * client sends after the server has answered (pipelined messages in one flight count once).
 */
async function roundTripCounter(target: URL) {
  let roundTrips = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let serverSpokeLast = true;
    client.on('data', (d) => {
      if (serverSpokeLast) roundTrips++;
      serverSpokeLast = false;
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      serverSpokeLast = true;
      client.write(d);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    count: () => roundTrips,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Round trips caused by `request`, counted once the connection has gone quiet after it. */
async function measure(counter: { count: () => number }, request: () => Promise<{ status: number }>) {
  const before = counter.count();
  const res = await request();
  let total = counter.count();
  for (let quiet = 0; quiet < 5; quiet++) {
    await new Promise((r) => setTimeout(r, 40));
    if (counter.count() !== total) quiet = 0;
    total = counter.count();
  }
  return { status: res.status, roundTrips: total - before };
}

describe('database round trips per authenticated request', () => {
  let counter: Awaited<ReturnType<typeof roundTripCounter>>;
  let server: { url: string; stop: () => Promise<void> };
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeAll(async () => {
    counter = await roundTripCounter(new URL(process.env.TEST_API_DATABASE_URL!));
    server = await startApi({
      port: await freePort(),
      databaseUrl: counter.url,
      // One connection, so that no request pays for opening one; statements stay prepared on it.
      env: { PLAUDIT_ENV: 'development', DATABASE_POOL_SIZE: '1' },
      stdio: 'ignore',
    });
    tenant = await createTenant();
  });
  afterAll(async () => {
    await server?.stop();
    await counter?.close();
  });

  const getOrg = (key: string) => () =>
    api('GET', `/api/v1/organizations/${tenant.org.id}`, { key, baseUrl: server.url });

  const listReviews = (key: string) => () =>
    api('GET', `/api/v1/organizations/${tenant.org.id}/reviews?min_rating=2&q=coffee`, { key, baseUrl: server.url });
  const firstPage = (key: string, query = '') => () =>
    api('GET', `/api/v1/organizations/${tenant.org.id}/reviews${query}`, { key, baseUrl: server.url });

  it('a read of the organization costs one: one statement authenticates the key and reads; the list three', async () => {
    await getOrg(tenant.keys.read)(); // prepares the statements on the connection
    await getOrg(tenant.keys.read)();
    expect(await measure(counter, getOrg(tenant.keys.read))).toEqual({ status: 200, roundTrips: 1 });
    // The list's first page is one statement too (fast-reads/), asked bare or as the SDK asks it.
    await firstPage(tenant.keys.read)();
    expect(await measure(counter, firstPage(tenant.keys.read))).toEqual({ status: 200, roundTrips: 1 });
    expect(await measure(counter, firstPage(tenant.keys.read, '?page=1'))).toEqual({ status: 200, roundTrips: 1 });
    // Any other list stays a query of a tenant transaction: the key's check with the set-up, the
    // query, the end (not awaited).
    await listReviews(tenant.keys.read)();
    expect(await measure(counter, listReviews(tenant.keys.read))).toEqual({ status: 200, roundTrips: 3 });
  });

  it("a write costs at most three: the key's check with the transaction's set-up, the handler's statement, the commit", async () => {
    const patch = () =>
      api('PATCH', `/api/v1/organizations/${tenant.org.id}`, {
        key: tenant.keys.admin,
        body: { name: 'Renamed' },
        baseUrl: server.url,
      });
    await patch();
    expect(await measure(counter, patch)).toMatchObject({ status: 200 });
    expect((await measure(counter, patch)).roundTrips).toBeLessThanOrEqual(3);
  });

  it('an unknown key costs one; a mistyped one none', async () => {
    const [{ key: unknown }] = await db<{ key: string }[]>`
      select 'rk_' || b || plaudit.api_key_checksum(b) as key from (select plaudit.random_base62(32) as b) x`;
    expect(await measure(counter, getOrg(unknown))).toEqual({ status: 401, roundTrips: 1 });

    const last = tenant.keys.read.at(-1) === 'A' ? 'B' : 'A';
    expect(await measure(counter, getOrg(tenant.keys.read.slice(0, -1) + last))).toEqual({
      status: 401,
      roundTrips: 0,
    });
  });
});
