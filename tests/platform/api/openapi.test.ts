import { describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/_shared/api/app.ts';
import { loadConfig } from '../../../functions/_shared/core/config.ts';
import { api } from '../../helpers/http.ts';

describe('OpenAPI document and explorer', () => {
  it('serves an OpenAPI 3.1 document with every /api/v1 route and its scope', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = res.body.paths as Record<
      string,
      Record<string, { security?: unknown[]; 'x-required-scope'?: string }>
    >;
    for (
      const [path, method] of [
        ['/api/v1/health', 'get'],
        ['/api/v1/organizations/{orgId}', 'get'],
        ['/api/v1/organizations/{orgId}', 'patch'],
        ['/api/v1/organizations/{orgId}/members', 'get'],
        ['/api/v1/organizations/{orgId}/invitations', 'post'],
        ['/api/v1/organizations/{orgId}/invitations/{id}', 'delete'],
        ['/api/v1/organizations/{orgId}/api-keys', 'post'],
        ['/api/v1/organizations/{orgId}/api-keys', 'get'],
        ['/api/v1/organizations/{orgId}/api-keys/{id}', 'delete'],
        ['/api/v1/organizations/{orgId}/api-keys/{id}/rotate', 'post'],
      ]
    ) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(paths['/api/v1/organizations/{orgId}/api-keys'].post['x-required-scope']).toBe('admin');
    expect(paths['/api/v1/organizations/{orgId}'].get.security).toEqual([{ ApiKey: [] }, { Session: [] }]);
    expect(res.body.components.securitySchemes.Session).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(res.body.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every /api/v1 route the app serves, and gives every keyed operation its scope', async () => {
    const app = createApp({
      sql: {} as never,
      config: loadConfig({ databaseUrl: 'postgres://unused', environment: 'production' }),
      log: () => {},
    });
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/'))
        // The document itself and the explorer's page and script are not operations.
        .filter((r) => r.path !== '/api/v1/openapi.json' && !r.path.startsWith('/api/v1/docs'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const res = await api('GET', '/api/v1/openapi.json');
    const paths = res.body.paths as Record<
      string,
      Record<string, { security?: unknown[]; 'x-required-scope'?: string }>
    >;
    const documented = new Set(
      Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    expect([...served].filter((r) => !documented.has(r)), 'served but not documented').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)), 'documented but not served').toEqual([]);
    for (const [path, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security?.length) {
          expect(['read', 'write', 'admin'], `${method} ${path}`).toContain(op['x-required-scope']);
        }
        if (path.startsWith('/api/v1/organizations/')) {
          expect(op.security, `${method} ${path}`).toEqual([{ ApiKey: [] }, { Session: [] }]);
        }
      }
    }
  });

  it('serves the explorer and its script from this server, with no third-party assets', async () => {
    for (const page of ['/docs', '/api/v1/docs']) {
      const html = await api('GET', page);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toMatch(/text\/html/);
      expect(html.body).toContain('/api/v1/openapi.json');
      expect(html.body).toContain('src="/api/v1/docs/scalar.js"');
      expect(html.body).not.toMatch(/https?:\/\//);
    }
    const script = await fetch(`${(await import('vitest')).inject('apiUrl')}/api/v1/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
