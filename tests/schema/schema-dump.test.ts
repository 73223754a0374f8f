// supabase/schema.sql is the schema at HEAD, in one place: this fails the day a change or a source
// changes the schema and the file was not refreshed (`npm run schema:dump`).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/database.mjs';
import { dumpSchema, SCHEMA_FILE } from '../../scripts/lib/schema-dump.mjs';

describe('supabase/schema.sql', () => {
  it('is what the migrations, changes and sources make (refresh it with npm run schema:dump)', () => {
    const committed = fs.readFileSync(path.join(root, SCHEMA_FILE), 'utf8');
    const made = dumpSchema(process.env.TEST_DATABASE_URL);
    // A line diff is easier to act on than two 7,000-line strings.
    const a = committed.split('\n');
    const b = made.split('\n');
    const first = a.findIndex((line: string, i: number) => line !== b[i]);
    expect(first, first < 0 ? '' : `first difference at line ${first + 1}:\n- ${a[first]}\n+ ${b[first]}`).toBe(-1);
    expect(a.length).toBe(b.length);
  });

  it('reads as a document: short lines, and a comment on every table, view and function', () => {
    const text = fs.readFileSync(path.join(root, SCHEMA_FILE), 'utf8');
    expect(text.split('\n').filter((line) => line.length > 300)).toEqual([]);
    const named = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1]);
    const objects = [
      ...named(/^CREATE TABLE (plaudit\.\w+)/gm),
      ...named(/^CREATE VIEW (plaudit\.\w+)/gm),
      ...named(/^-- FUNCTION (plaudit\.\w+)/gm),
    ];
    const commented = new Set(named(/^COMMENT ON (?:TABLE|VIEW|FUNCTION) (plaudit\.\w+)/gm));
    expect(objects.filter((name) => !commented.has(name))).toEqual([]);
    expect(named(/^-- FUNCTION (plaudit\.\w+)/gm).length).toBeGreaterThan(100);
  });

  it('lists functions by their signatures and the source that holds each body, never the body', () => {
    const text = fs.readFileSync(path.join(root, SCHEMA_FILE), 'utf8');
    expect(text).not.toMatch(/^CREATE FUNCTION /m);
    const homes = [...text.matchAll(/^-- FUNCTION plaudit\.\w+ \((\S+)\)$/gm)].map((m) => m[1]);
    expect(homes.length).toBeGreaterThan(100);
    expect(homes.filter((home) => !fs.existsSync(path.join(root, home)))).toEqual([]);
  });
});
