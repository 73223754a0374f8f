// npm test: the whole suite on a throwaway PostgreSQL cluster with pg_cron preloaded.
// pgTAP through pg_prove, then vitest (unit tests and the API over real HTTP). Arguments after
// `npm test --` go to vitest (a file filter, say).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, authenticatorUrl, connect, ensureDatabase, root } from './lib/database.mjs';
import { ensureDebianPackages, TEST_PACKAGES } from './lib/deps.mjs';
import { Cluster, freePort } from './lib/postgres.mjs';
import { ensureBuilt } from './lib/builds.mjs';

ensureDebianPackages(TEST_PACKAGES);
ensureBuilt();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-test-'));
const cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_test' });
const summary = { passed: 0, failed: 0 };
let exitCode = 1;

function runPgProve(url) {
  const u = new URL(url);
  const r = spawnSync('pg_prove', ['--ext', '.sql', '-r', 'supabase/tests/database'], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      PGHOST: u.hostname,
      PGPORT: u.port,
      PGUSER: decodeURIComponent(u.username),
      PGPASSWORD: decodeURIComponent(u.password),
      PGDATABASE: u.pathname.slice(1),
    },
  });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  const tests = Number(/Tests=(\d+)/.exec(r.stdout)?.[1] ?? 0);
  const failed = [...r.stdout.matchAll(/Failed (\d+)\/\d+ subtests/g)].reduce((n, m) => n + Number(m[1]), 0);
  const broken = r.status !== 0 && failed === 0 ? 1 : 0; // a file that died before its plan
  summary.passed += tests - failed;
  summary.failed += failed + broken;
  return r.status === 0;
}

// The house rules of deno.json, each counted as one test: the format, the linter, and the types
// of functions/, tests/ and scripts/ (Deno type-checks as the deployed runtime will), and the
// dashboard's types.
function runDenoTask(task) {
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'deno'), ['task', '-q', task], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  if (r.status === 0) summary.passed += 1;
  else {
    summary.failed += 1;
    console.error(`deno task ${task} failed${task === 'fmt' ? ': run `npx deno fmt` to format the tree' : ''}`);
  }
  return r.status === 0;
}

function runVitest(env) {
  const report = path.join(dir, 'vitest.json');
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vitest'), [
    'run',
    '--config',
    'tests/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    summary.passed += json.numPassedTests;
    summary.failed += json.numFailedTests;
  }
  return r.status === 0;
}

try {
  cluster.init();
  cluster.start();
  await ensureDatabase(cluster.url('postgres'), cluster.database);
  const databaseUrl = cluster.url();
  await applyMigrations(databaseUrl);
  const sql = connect(databaseUrl);
  await sql`create extension if not exists pgtap`;
  await sql.unsafe(fs.readFileSync(path.join(root, 'supabase', 'tests', 'helpers.sql'), 'utf8'));
  await sql.end();

  // PLAUDIT_TEST_ONLY=pgtap|vitest runs one half; arguments for vitest imply vitest only.
  const only = process.env.PLAUDIT_TEST_ONLY ?? (process.argv.length > 2 ? 'vitest' : '');
  const typesOk = only
    ? true
    : ['fmt', 'lint', 'check', 'check:dashboard', 'check:widget'].map(runDenoTask).every(Boolean);
  const pgOk = only === 'vitest' ? true : runPgProve(databaseUrl);
  const vitestOk = only === 'pgtap' ? true : runVitest({
    TEST_DATABASE_URL: databaseUrl,
    TEST_API_DATABASE_URL: await authenticatorUrl(databaseUrl),
    TEST_TMP_DIR: dir,
  });
  exitCode = typesOk && pgOk && vitestOk ? 0 : 1;
} catch (err) {
  console.error(err.message);
  summary.failed += 1;
} finally {
  cluster.stop();
  if (exitCode === 0) fs.rmSync(dir, { recursive: true, force: true });
  else console.error(`kept ${dir} (server logs) for inspection`);
}

console.log(`\n${summary.passed} passed, ${summary.failed} failed`);
process.exit(exitCode);
