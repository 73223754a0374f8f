import { describe, expect, it } from 'vitest';
import { api } from '../helpers/http.ts';

describe('OpenAPI document and explorer', () => {
  it('serves an OpenAPI 3.1 document with every /api/v1 route and its scope', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = res.body.paths as Record<string, Record<string, { security?: unknown; 'x-required-scope'?: string }>>;
    for (const [path, method] of [
      ['/api/v1/health', 'get'],
      ['/api/v1/organizations/{orgId}', 'get'],
      ['/api/v1/organizations/{orgId}', 'patch'],
      ['/api/v1/organizations/{orgId}/members', 'get'],
      ['/api/v1/organizations/{orgId}/invitations', 'post'],
      ['/api/v1/organizations/{orgId}/api-keys', 'post'],
      ['/api/v1/organizations/{orgId}/api-keys', 'get'],
      ['/api/v1/organizations/{orgId}/api-keys/{id}', 'delete'],
      ['/api/v1/organizations/{orgId}/api-keys/{id}/rotate', 'post'],
    ]) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(paths['/api/v1/organizations/{orgId}/api-keys'].post['x-required-scope']).toBe('admin');
    expect(paths['/api/v1/organizations/{orgId}'].get.security).toEqual([{ ApiKey: [] }]);
    expect(res.body.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route the app serves', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    const documented = Object.keys(res.body.paths);
    expect(documented.length).toBeGreaterThanOrEqual(7);
    for (const path of documented) expect(path.startsWith('/api/v1/')).toBe(true);
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
