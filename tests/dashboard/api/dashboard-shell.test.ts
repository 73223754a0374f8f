// The dashboard's page: one HTML shell for every path under /app (the app routes in the browser),
// under a Content-Security-Policy that allows this origin's files only and no framing, and the
// built files it names, content-hashed and cached for a year.
import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { DASHBOARD_MANIFEST } from '../../../scripts/lib/builds.mjs';
import { api, errorBody } from '../../helpers/http.ts';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const manifest = () => JSON.parse(fs.readFileSync(DASHBOARD_MANIFEST, 'utf8'));

/** The files the shell loads: stylesheets, preloads and the script. */
function referenced(html: string) {
  const all = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]);
  return {
    styles: all(/<link rel="stylesheet" href="([^"]+)">/g),
    preloads: all(/<link rel="modulepreload" href="([^"]+)">/g),
    scripts: all(/<script type="module" src="([^"]+)"><\/script>/g),
  };
}

describe('the dashboard shell', () => {
  it('is an HTML page that loads the built entry, with a strict policy, no framing, no referrer, no cache', async () => {
    const res = await api('GET', '/app');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8$/i);
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');

    const html: string = res.body;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Plaudit</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<div id="app"></div>');
    expect(html).toMatch(/<noscript><p>[^<]*needs JavaScript[^<]*<\/p><\/noscript>/);
    // No inline script: the policy would refuse it.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    // What the manifest says the entry needs: its script, its CSS, its static imports.
    const m = manifest();
    const entry = m['src/main.tsx'];
    const { styles, preloads, scripts } = referenced(html);
    expect(scripts).toEqual([`/app/${entry.file}`]);
    expect(styles).toEqual(expect.arrayContaining((entry.css ?? []).map((f: string) => `/app/${f}`)));
    expect(preloads).toEqual(expect.arrayContaining((entry.imports ?? []).map((k: string) => `/app/${m[k].file}`)));
  });

  it('answers every path under /app with the same shell: deep links and the sign-in link work', async () => {
    const shell = (await api('GET', '/app')).body;
    for (const path of ['/app/', '/app/o/x/reviews', '/app/sign-in', '/app/o/3f1c/settings/keys?tab=1']) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toBe(CSP);
      expect(res.body, path).toBe(shell);
    }
  });

  it('is not an operation of the OpenAPI document', async () => {
    const doc = await api('GET', '/api/v1/openapi.json');
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/app'))).toEqual([]);
  });
});

describe("the dashboard's files", () => {
  it('serves each file the shell names: a year of immutable cache, its type, an ETag that answers 304', async () => {
    const { styles, preloads, scripts } = referenced((await api('GET', '/app')).body);
    const files = [...styles, ...preloads, ...scripts];
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const res = await fetch(`${inject('apiUrl')}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type'), file).toBe(
        file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(res.headers.get('x-content-type-options'), file).toBe('nosniff');
      const etag = res.headers.get('etag');
      expect(etag, file).toMatch(/^"[0-9a-f]{16}"$/);
      expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(0);

      const again = await fetch(`${inject('apiUrl')}${file}`, { headers: { 'if-none-match': etag! } });
      expect(again.status, file).toBe(304);
      expect(await again.text()).toBe('');
    }
  });

  it('serves the lazily loaded chunks too, which the shell does not name', async () => {
    const m = manifest();
    const lazy = Object.values<any>(m).filter((c) => c.isDynamicEntry).map((c) => c.file);
    for (const file of lazy) {
      const res = await api('GET', `/app/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe('text/javascript; charset=utf-8');
    }
  });

  it('answers 404 in the error format for any name the build does not hold, traversal included', async () => {
    for (
      const path of [
        '/app/assets/nope.js',
        '/app/assets/..%2F..%2Fpackage.json',
        '/app/assets/..%2f.vite%2fmanifest.json',
        '/app/assets/%2e%2e%2f%2e%2e%2fpackage.json',
        '/app/assets/main.tsx',
        '/app/assets/sub/dir.js',
        '/app/assets/',
      ]
    ) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(res.body, path).toEqual(errorBody(404, 'Not Found', /No such file in the dashboard/));
    }
  });
});
