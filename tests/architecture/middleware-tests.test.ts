// Hono's layout, as docs/ARCHITECTURE.md and the README describe it: each middleware of the API
// lives in its own folder under functions/_shared/api/middleware/, with its `app.request()` tests
// beside it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const middleware = 'functions/_shared/api/middleware';

/** The folders of middleware/ that hold no `*.test.ts`, and the files that lie in it loose. */
export function untested(dir: string): { folders: string[]; loose: string[] } {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  return {
    folders: entries
      .filter((e) => e.isDirectory())
      .filter((e) => !fs.readdirSync(path.join(dir, e.name)).some((f) => f.endsWith('.test.ts')))
      .map((e) => `${e.name}/`),
    loose: entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => e.name),
  };
}

describe(`${middleware}/`, () => {
  it('holds one folder per middleware, each with its test', () => {
    const dir = path.join(root, middleware);
    expect(fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).length)
      .toBeGreaterThan(5);
    expect(untested(dir)).toEqual({ folders: [], loose: [] });
  });

  it("names each of its folders in docs/ARCHITECTURE.md's row of the room, and no folder that is gone", () => {
    const map = fs.readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const row = map.split('\n').find((line) => line.startsWith(`| \`${middleware}/\``))!;
    expect(row).toBeDefined();
    const holds = row.split('|')[2];
    const named = [...holds.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]).sort();
    const folders = fs.readdirSync(path.join(root, middleware), { withFileTypes: true })
      .filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(named).toEqual(folders);
  });

  it('names a folder without a test and a file outside any folder', () => {
    const tmp = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'middleware-'));
    try {
      fs.mkdirSync(path.join(tmp, 'tested'));
      fs.writeFileSync(path.join(tmp, 'tested', 'index.ts'), '');
      fs.writeFileSync(path.join(tmp, 'tested', 'index.test.ts'), '');
      fs.mkdirSync(path.join(tmp, 'bare'));
      fs.writeFileSync(path.join(tmp, 'bare', 'index.ts'), '');
      fs.writeFileSync(path.join(tmp, 'loose.ts'), '');
      expect(untested(tmp)).toEqual({ folders: ['bare/'], loose: ['loose.ts'] });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
