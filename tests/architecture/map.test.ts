// docs/ARCHITECTURE.md names files and folders as they are: every backticked path of the map
// (`db/roles.ts`, `lanes/`, `tests/architecture/boundaries.test.ts`) is the end of a path in the
// checkout, so a file moved or removed is moved or removed in the map too.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
/** Not the code's: installed packages, built files, the history. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.plaudit', 'coverage']);

/** Every file and folder of the checkout, relative to its root (folders with a trailing slash). */
function entries(dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    if (SKIPPED.has(e.name)) return [];
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? [`${rel}/`, ...entries(rel)] : [rel];
  });
}

/** The backticked file and folder names of a text: `a.ts`, `b/`, `c/d.sql` (not `/api/v1`, `<x>`, `*`). */
export function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]))].filter((p) =>
    /^[\w.-]+(\/[\w.-]+)*(\/|\.(ts|tsx|mjs|js|sql|json|md|css))$/.test(p) && !p.startsWith('.')
  );
}

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const all = entries();
    const map = fs.readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const named = namedPaths(map);
    expect(named.length).toBeGreaterThan(50);
    const missing = named.filter((p) => !all.some((e) => e === p || e.endsWith(`/${p}`)));
    expect(missing).toEqual([]);
  });

  it('reads file and folder names, not routes, globs or placeholders', () => {
    expect(namedPaths('`db/roles.ts`, `lanes/`, `/api/v1`, `functions/**/*.test.ts`, `<version>_x.sql`, `x`')).toEqual(
      ['db/roles.ts', 'lanes/'],
    );
  });
});
