// docs/ARCHITECTURE.md names every concern of the database's code: a row of its table per file of
// supabase/schemas/, and no row for a file that is gone.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');

describe('docs/ARCHITECTURE.md', () => {
  it('names every file of supabase/schemas/, and none that is gone', () => {
    const sources = fs.readdirSync(path.join(root, 'supabase', 'schemas')).filter((f) => f.endsWith('.sql')).sort();
    const doc = fs.readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const named = [...doc.matchAll(/^\| `([\w-]+\.sql)` +\|/gm)].map((m) => m[1]).sort();
    expect(sources.length).toBeGreaterThan(20);
    expect(named).toEqual(sources);
  });
});
