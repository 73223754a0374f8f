// npm run db:release -- <version> — writes the one migration a hosted project applies with
// `supabase db push` to go from the last release to HEAD.
//
// Between releases nothing generated is committed: tables change in supabase/changes/ (by hand),
// everything else in supabase/schemas/, and every database is brought to HEAD by applying both
// (scripts/lib/sql-sources.mjs). This command makes a database of the last release and one of
// HEAD on a throwaway cluster, compares what the sources make in each (sql-catalog.mjs), and
// writes supabase/migrations/<now>_plaudit_<version>.sql: the grants, policies and trigger
// bindings that went or changed, removed; the changes, as written; the functions and views that
// are new or changed, as their sources read; the lookup tables' rows the sources keep, new or
// changed, inserted; what went, dropped; the bindings and grants that are new or changed, made. It
// then applies that file to a third database of the last release, as `supabase db push` would,
// and fails unless the result is HEAD exactly (catalog and pg_dump).
// The changes it folds leave supabase/changes/, and supabase/releases.json names the release.
//
//   npm run db:release -- 0.3.0            # writes the release
//   npm run db:release -- --check          # writes nothing; fails when the release would not be HEAD
//   npm run db:release -- 0.3.0 --out DIR  # writes DIR/supabase/migrations/ (the released ones and this one)
import fs from 'node:fs';
import path from 'node:path';
import { applyMigrations, connect, releases, root } from './lib/database.mjs';
import { withScratchCluster } from './lib/scratch-database.mjs';
import { catalogDifferences, sourceCatalog } from './lib/sql-catalog.mjs';
import { applyHead, changeFiles, NOT_YET, readSources, rolledBack, textOf } from './lib/sql-sources.mjs';
import { rawSchemaDump } from './lib/schema-dump.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? '') : null;
const baseIndex = args.indexOf('--base');
const base = baseIndex >= 0 ? path.resolve(args[baseIndex + 1]) : root;
const version = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--out' && args[i - 1] !== '--base');
if (!check && !/^\d+\.\d+\.\d+(-[0-9a-z.]+)?$/.test(version ?? '')) {
  console.error('usage: npm run db:release -- <version, e.g. 0.3.0> [--out DIR] | --check   [--base CHECKOUT]');
  process.exit(2);
}

/** What the sources make on a database at HEAD, each with its identity (applied and rolled back). */
async function sourcesByIdentity(sql) {
  const made = await rolledBack(sql, (tx) => applyHead(tx, { definitions: readSources(base) }));
  return new Map(made.filter((m) => m.kind !== 'grant').map((m) => [m.identity, m]));
}

const quoted = (entry) => {
  // "policy name on plaudit.t" → drop policy "name" on plaudit.t
  const m = /^(trigger|policy) (.+) on (\S+)$/.exec(entry.identity);
  return `${m[1]} "${m[2].replaceAll('"', '""')}" on ${m[3]}`;
};
const revokeOf = (identity) => identity.replace(/^grant /, 'revoke ').replace(/ to ([^ ]+)$/, ' from $1') + ';';

/**
 * The functions that cannot be made on a database of the last release before the changes run:
 * they name a type or table a change makes (tried, and rolled back).
 */
async function waitingForChanges(sql, definitions) {
  const waits = new Set();
  await rolledBack(sql, async (tx) => {
    await tx.unsafe('set local check_function_bodies = off');
    await tx.unsafe('set local role plaudit_owner');
    for (const d of definitions) {
      await tx.savepoint((sp) => sp.unsafe(textOf(d))).catch((err) => {
        if (NOT_YET.has(err.code)) waits.add(d.identity);
      });
    }
  });
  return waits;
}

/** The release's text: from the last release's catalog to HEAD's. */
function writeRelease({ before, after, sources, changes, release, waits }) {
  const diff = catalogDifferences(before, after);
  const of = (kind, ...changesOf) => diff.filter((d) => d.kind === kind && changesOf.includes(d.change));
  const source = (identity) => {
    const s = sources.get(identity);
    if (!s) throw new Error(`${identity}: no source in supabase/schemas/ makes it`);
    return textOf(s);
  };
  const remade = new Set(); // objects dropped and made again: their grants are given again
  const parts = [];
  const section = (title, statements) => {
    if (statements.length > 0) parts.push(`-- ${title}\n${statements.join('\n\n')}`);
  };
  const goneObjects = new Set(diff.filter((d) => d.change === 'gone' && d.kind !== 'grant').map((d) => d.identity));
  section(
    'Grants that go',
    of('grant', 'gone').filter((d) => !goneObjects.has(d.before.object)).map((d) => revokeOf(d.identity)),
  );
  section(
    'Policies and trigger bindings that go or change',
    [...of('policy', 'gone', 'changed'), ...of('trigger', 'gone', 'changed')].map((d) => `drop ${quoted(d)};`),
  );
  section('Views that go', of('view', 'gone').map((d) => `drop view ${d.identity};`));
  section(
    'Functions whose result type changes (made again below)',
    of('function', 'changed').filter((d) => d.before.result !== d.after.result).map((d) => {
      remade.add(d.identity);
      return `drop function ${d.identity};`;
    }),
  );
  // As every database gets them (sql-sources.mjs): functions before the changes, but for those
  // that name what a change makes.
  const functions = of('function', 'new', 'changed');
  const late = functions.filter((d) => waits.has(d.identity));
  section('Functions, new or changed', functions.filter((d) => !waits.has(d.identity)).map((d) => source(d.identity)));
  for (const change of changes) {
    parts.push(
      `-- supabase/changes/${path.basename(change.file)}\n${change.text.trim()}\nset role plaudit_owner;`,
    );
  }
  section('Functions that name what the changes make', late.map((d) => source(d.identity)));
  // The lookup tables' rows the sources keep (SOURCE_ROWS), new or changed: the sources that insert
  // them, after the changes that make their tables. A row never goes (a trail entry may name it).
  section('Rows the sources keep, new or changed', [
    ...new Set(of('row', 'new', 'changed').map((d) => source(d.identity))),
  ]);
  section('Functions that go', of('function', 'gone').map((d) => `drop function ${d.identity};`));
  const views = [...sources.values()].filter((s) => s.kind === 'view').map((s) => s.identity);
  const viewChanges = new Set(of('view', 'new', 'changed').map((d) => d.identity));
  section('Views, new or changed', views.filter((v) => viewChanges.has(v)).map(source));
  section(
    'Trigger bindings and policies, new or changed',
    [...of('trigger', 'new', 'changed'), ...of('policy', 'new', 'changed')].map((d) => source(d.identity)),
  );
  const grants = [...after.values()].filter((e) =>
    e.kind === 'grant' && (!before.has(e.identity) || remade.has(e.object))
  );
  section('Grants, new', grants.map((e) => e.identity + ';'));
  if (parts.length === 0) return null;
  return [
    `-- Plaudit ${release}: written by \`npm run db:release\` from the changes of supabase/changes/ and the sources of`,
    '-- supabase/schemas/, to take a database of the previous release to this one. Never edited by hand.',
    'set role plaudit_owner;',
    'set check_function_bodies = off;',
    '',
    parts.join('\n\n'),
    '',
    'reset check_function_bodies;',
    'reset role;',
    '',
  ].join('\n');
}

// pg_dump's \\restrict lines carry a random key: the rest must be equal.
const dump = (url) => rawSchemaDump(url).replace(/^\\(un)?restrict .*$/gm, '');

function nextVersion(last) {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return now > last ? now : String(BigInt(last) + 1n);
}

const known = releases(base);
const last = known.at(-1);
const changes = changeFiles(base);

const code = await withScratchCluster(async (database) => {
  const lastUrl = await database('plaudit_last_release');
  const headUrl = await database('plaudit_head');
  const checkUrl = await database('plaudit_release_check');
  await applyMigrations(lastUrl, { until: last.migration, base });
  await applyMigrations(headUrl, { base });
  const [lastSql, headSql] = [connect(lastUrl), connect(headUrl)];
  let text;
  try {
    const before = await sourceCatalog(lastSql);
    const after = await sourceCatalog(headSql);
    const sources = await sourcesByIdentity(headSql);
    const touched = catalogDifferences(before, after).filter((d) => d.kind === 'function' && d.change !== 'gone');
    text = writeRelease({
      before,
      after,
      sources,
      waits: await waitingForChanges(lastSql, touched.map((d) => sources.get(d.identity))),
      changes,
      release: version ?? 'next',
    });
    if (!text) {
      console.log(`HEAD is release ${last.release}: nothing to release`);
      return 0;
    }
    // The release, applied as `supabase db push` applies a migration, must leave HEAD exactly.
    await applyMigrations(checkUrl, { until: last.migration, base });
    const checkSql = connect(checkUrl);
    try {
      await checkSql.begin((tx) => tx.unsafe(text));
      const left = catalogDifferences(after, await sourceCatalog(checkSql));
      if (left.length > 0) {
        console.error(`the release would not leave HEAD: ${left.map((d) => `${d.identity} (${d.change})`).join(', ')}`);
        return 1;
      }
    } catch (err) {
      console.error(`the release fails on a database of ${last.release}: ${err.message}`);
      return 1;
    } finally {
      await checkSql.end();
    }
  } finally {
    await lastSql.end();
    await headSql.end();
  }
  if (dump(checkUrl) !== dump(headUrl)) {
    console.error('the release leaves a schema that pg_dump tells apart from HEAD');
    return 1;
  }
  const lines = text.split('\n').length;
  if (check) {
    console.log(`a release now would take ${last.release} to HEAD (${changes.length} changes, ${lines} lines)`);
    return 0;
  }
  const stamp = nextVersion(last.migration);
  const file = `${stamp}_plaudit_${version.replace(/\W/g, '_')}.sql`;
  if (out) {
    const dir = path.join(out, 'supabase', 'migrations');
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(path.join(base, 'supabase', 'migrations'))) {
      fs.copyFileSync(path.join(base, 'supabase', 'migrations', f), path.join(dir, f));
    }
    fs.writeFileSync(path.join(dir, file), text);
    console.log(`wrote ${path.join(dir, file)}`);
    return 0;
  }
  fs.writeFileSync(path.join(base, 'supabase', 'migrations', file), text);
  const json = JSON.parse(fs.readFileSync(path.join(base, 'supabase', 'releases.json'), 'utf8'));
  json[version] = { migration: stamp, folds: changes.map((c) => c.version) };
  fs.writeFileSync(path.join(base, 'supabase', 'releases.json'), JSON.stringify(json, null, 2) + '\n');
  for (const c of changes) fs.rmSync(c.file);
  console.log(`wrote supabase/migrations/${file} (${lines} lines); folded ${changes.length} changes`);
  return 0;
});
process.exit(code);
