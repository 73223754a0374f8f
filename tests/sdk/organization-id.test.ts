// The organization a client works on: given, or the key's own, asked once from GET /api/v1/me.
import { describe, expect, inject, it } from 'vitest';
import { createTenant } from '../helpers/db.ts';
import { AuthenticationError, Plaudit } from '../../sdk/src/index.ts';
import { localServers } from './helpers.ts';

const serve = localServers();

function counting(paths: string[]): typeof fetch {
  return (input, init) => {
    paths.push(new URL(String(input)).pathname);
    return fetch(input, init);
  };
}

describe('organization id', () => {
  it("is the key's own when not given: asked once, then kept for every call", async () => {
    const t = await createTenant();
    const paths: string[] = [];
    const plaudit = new Plaudit({ apiKey: t.keys.read, baseUrl: inject('apiUrl'), fetch: counting(paths) });
    expect(await plaudit.me()).toMatchObject({
      organization_id: t.org.id,
      api_key: { id: t.keyIds.read, scope: 'read', prefix: t.keys.read.slice(0, 11) },
    });
    paths.length = 0;
    const [org, page] = await Promise.all([plaudit.organization.get(), plaudit.reviews.list()]);
    await plaudit.reviewForms.list();
    expect(org.id).toBe(t.org.id);
    expect(page.meta.total).toBe(0);
    expect(paths.filter((p) => p === '/api/v1/me')).toHaveLength(1);
    expect(paths.filter((p) => p.startsWith(`/api/v1/organizations/${t.org.id}`))).toHaveLength(3);
  });

  it('is not asked for when given, and a failed question is asked again', async () => {
    const t = await createTenant();
    const given: string[] = [];
    await new Plaudit({
      apiKey: t.keys.read,
      baseUrl: inject('apiUrl'),
      organizationId: t.org.id,
      fetch: counting(given),
    }).organization.get();
    expect(given).toEqual([`/api/v1/organizations/${t.org.id}`]);

    let meCalls = 0;
    const url = await serve((req, res) => {
      if (req.url === '/api/v1/me' && ++meCalls === 1) {
        return res.writeHead(401, { 'content-type': 'application/json' })
          .end('{"statusCode":401,"error":"Unauthorized","message":"Invalid API key"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        req.url === '/api/v1/me' ? '{"organization_id":"org-1","api_key":{}}' : JSON.stringify({ url: req.url }),
      );
    });
    const plaudit = new Plaudit({ apiKey: 'rk_x', baseUrl: url });
    await expect(plaudit.organization.get()).rejects.toBeInstanceOf(AuthenticationError);
    expect(await plaudit.organization.get()).toEqual({ url: '/api/v1/organizations/org-1' });
    expect(await plaudit.publicProfile.get()).toEqual({ url: '/api/v1/organizations/org-1/public-profile' });
    expect(meCalls).toBe(2);
  });
});
