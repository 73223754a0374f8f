// npm run db:migration -- <name> — writes the next migration from what changed in supabase/sql/.
//
// The functions and views live once, in supabase/sql/; hosted deployments (`supabase db push`)
// and npm start apply plain migrations. This command makes one from the other: on a throwaway
// database it applies the migrations, then the sources, and writes
// supabase/migrations/<now>_<name>.sql with what differs — a changed or new definition as its
// source reads, a changed comment alone as its `comment on`, a definition no source holds any
// more dropped, and a changed result type (which `create or replace` cannot do) dropped and made
// again with its grants. It then applies the new file to the same database and checks that it
// leaves exactly what the sources say. Tables, indexes, policies and grants of new functions are
// written by hand, in a migration of their own before this one (CONTRIBUTING.md).
//
//   npm run db:migration -- products        # writes supabase/migrations/<yyyymmddhhmmss>_products.sql
//   npm run db:migration -- --check         # says what would change; exits 1 when something would
import fs from 'node:fs';
import path from 'node:path';
import { connect, migrationFiles, MIGRATIONS_DIR } from './lib/database.mjs';
import { withMigratedDatabase } from './lib/scratch-database.mjs';
import { compareWithSources, difference } from './lib/sql-sources.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const name = args.find((a) => !a.startsWith('--'));
if (!check && !/^[a-z][a-z0-9_]{0,62}$/.test(name ?? '')) {
  console.error('usage: npm run db:migration -- <name in lower_snake_case> | --check');
  process.exit(2);
}

/** The statements that take a database from `before` to what the sources make. */
function plan({ before, after, made }) {
  const steps = [];
  const sourced = new Set(made.map((m) => m.identity));
  // A function whose arguments changed is a new identity: it takes the grants of the one it replaces.
  const grantsOfGone = new Map();
  for (const [identity, old] of before) {
    if (sourced.has(identity)) continue;
    steps.push({ identity, why: 'gone', sql: `drop ${old.kind} ${identity};` });
    grantsOfGone.set(identity.replace(/\(.*$/, ''), old.grantees);
  }
  const grants = (identity, grantees) => grantees.map((g) => `grant execute on function ${identity} to ${g};`);
  for (const m of made) {
    const old = before.get(m.identity);
    const now = after.get(m.identity);
    const problem = difference(old, now);
    if (!problem) continue;
    const create = (m.statement.comment ? m.statement.comment + '\n' : '') + m.statement.text;
    if (old && old.definition === now.definition) {
      steps.push({ identity: m.identity, why: 'comment', sql: m.commentOn });
    } else if (old && old.result !== now.result) {
      steps.push({
        identity: m.identity,
        why: 'result type',
        sql: [`drop function ${m.identity};`, create, m.commentOn, ...grants(m.identity, old.grantees)].join('\n'),
      });
    } else if (old) {
      steps.push({ identity: m.identity, why: 'changed', sql: [create, m.commentOn].join('\n') });
    } else {
      const replaced = grantsOfGone.get(m.identity.replace(/\(.*$/, ''));
      steps.push({
        identity: m.identity,
        why: replaced ? 'arguments' : 'new',
        sql: [create, m.commentOn, ...grants(m.identity, replaced ?? [])].join('\n'),
      });
    }
  }
  return steps;
}

function nextVersion() {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const last = migrationFiles().at(-1)?.split('_')[0] ?? '0';
  return now > last ? now : String(BigInt(last) + 1n);
}

await withMigratedDatabase(async (url) => {
  const sql = connect(url);
  try {
    const steps = plan(await compareWithSources(sql));
    if (steps.length === 0) {
      console.log('supabase/sql/ and the migrations agree: nothing to write');
      return;
    }
    for (const s of steps) console.log(`${s.why.padEnd(11)} ${s.identity}`);
    if (check) {
      process.exitCode = 1;
      return;
    }
    const file = path.join(MIGRATIONS_DIR, `${nextVersion()}_${name}.sql`);
    const text = [
      `-- ${name.replaceAll('_', ' ')}: written by \`npm run db:migration\` from supabase/sql/ (the functions' home).`,
      'set role plaudit_owner;',
      '',
      steps.map((s) => s.sql).join('\n\n'),
      '',
      'revoke execute on all functions in schema plaudit from public;',
      'reset role;',
      '',
    ].join('\n');
    // The file must take the database to exactly what the sources make.
    await sql.begin((tx) => tx.unsafe(text));
    const left = plan(await compareWithSources(sql));
    if (left.length > 0) {
      throw new Error(`the written migration leaves differences: ${left.map((s) => s.identity).join(', ')}`);
    }
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
    if (steps.some((s) => s.why === 'new')) {
      console.log(
        'new functions: add their grants (grant execute … to the roles that call them) at the end of that file',
      );
    }
  } finally {
    await sql.end();
  }
});
