// No source file passes 500 lines (CONTRIBUTING.md): a file that grows past it is split by concern,
// as routes/reviews/, the API's tests and supabase/schemas/review_requests.sql were. The dashboard
// and the database's sources and changes count too; released migrations (written by a tool, never
// edited) do not.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const MAX_LINES = 500;
const FOLDERS = [
  'functions',
  'widget/src',
  'sdk/src',
  'dashboard/src',
  'scripts',
  'tests',
  'supabase/schemas',
  'supabase/changes',
];
const SOURCE = /\.(ts|tsx|mts|js|mjs|sql)$/;
/** Written by tools, not by hand: the SDK's generated types, installed and built files. */
const SKIPPED = new Set(['generated', 'node_modules', 'dist']);

/** Every source file under `dir`, relative to the repository's root. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(rel);
    return entry.isFile() && SOURCE.test(entry.name) ? [rel] : [];
  });
}

function lineCount(file: string): number {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source file size', () => {
  it(`no source file under ${FOLDERS.join(', ')} passes ${MAX_LINES} lines`, () => {
    const tooLong = FOLDERS.flatMap(sourceFiles)
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });

  it('counts lines as wc -l does, and finds the files it must', () => {
    expect(sourceFiles('tests/architecture')).toContain('tests/architecture/file-size.test.ts');
    expect(sourceFiles('sdk/src').some((f) => f.includes('/generated/'))).toBe(false);
    expect(sourceFiles('supabase/schemas')).toContain('supabase/schemas/review_requests.sql');
    expect(sourceFiles('dashboard/src').some((f) => f.endsWith('.tsx'))).toBe(true);
    const text = fs.readFileSync(__filename, 'utf8');
    expect(lineCount('tests/architecture/file-size.test.ts')).toBe(text.split('\n').length - 1);
  });
});
