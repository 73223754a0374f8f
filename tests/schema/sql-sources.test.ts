// supabase/sql/ is the one home of every function and view; the migrations deploy what it says.
// This fails the day they part: a source edited without its migration (`npm run db:migration`),
// a function a migration made that no source holds, or one defined twice.
import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { compareWithSources, difference, readSources } from '../../scripts/lib/sql-sources.mjs';

// Applied in a transaction that is rolled back: the database is left as the migrations made it.
async function beforeAndAfterSources() {
  const sql = postgres(process.env.TEST_DATABASE_URL!, { max: 1, prepare: false, onnotice: () => {} });
  try {
    return await compareWithSources(sql);
  } finally {
    await sql.end();
  }
}

describe('supabase/sql/', () => {
  it('holds every function and view exactly as the migrations leave them, each once', async () => {
    const { before, after, made } = await beforeAndAfterSources();
    const problems: string[] = [];
    const sourced = new Set(made.map((m) => m.identity));
    for (const identity of before.keys()) {
      if (!sourced.has(identity)) problems.push(`${identity}: made by the migrations, not in supabase/sql/`);
    }
    for (const { identity, file } of made) {
      const problem = difference(before.get(identity), after.get(identity));
      if (problem) problems.push(`${identity} (${file}): ${problem}; run npm run db:migration -- <name>`);
    }
    expect(problems).toEqual([]);
    expect(made.length).toBe(before.size);
  });

  it('has a comment on every definition', () => {
    const missing = readSources().filter((d) => !d.commentOn).map((d) => d.name);
    expect(missing).toEqual([]);
  });
});
