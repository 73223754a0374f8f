// Every route of the API is declared one way: `orgRoute` (an organization's, with its scope) or
// `publicRoute` (the others, the media upload included, which a credential may call too), both
// from routes/define.ts. A route made with zod-openapi's createRoute elsewhere would skip what
// define.ts adds (the credential, idempotency, the fast path's declaration) and what it documents.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const routes = path.resolve(__dirname, '..', '..', 'functions', '_shared', 'api', 'routes');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('route declarations', () => {
  const files = sourceFiles(routes).map((file) => ({
    file: path.relative(routes, file),
    text: fs.readFileSync(file, 'utf8'),
  }));

  it('go through orgRoute or publicRoute: only define.ts calls createRoute', () => {
    expect(files.filter((f) => f.file !== 'define.ts' && /\bcreateRoute\b/.test(f.text)).map((f) => f.file))
      .toEqual([]);
  });

  it("give each handler its route's types: no route module casts a context, its request or a middleware", () => {
    const cast = /as unknown as MiddlewareHandler|\b(c|c\.req|c\.var) as unknown\b/;
    expect(files.filter((f) => f.file !== 'define.ts' && cast.test(f.text)).map((f) => f.file)).toEqual([]);
  });
});
