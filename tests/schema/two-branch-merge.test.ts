// Two branches that both change plaudit.review_json and plaudit.submit_review, each with a table
// change of its own and a trail action of its own (a row of plaudit.trail_actions, inserted by
// its feature's source file), merge with git alone: no merge migration, no rename, no union of
// lists written by hand. Then the merged tree
// is what every database becomes (the upgrade from the last release), and the release written
// from it takes a database of the last release to exactly that (`npm run db:release -- --check`).
// Everything happens in a scratch repository holding a copy of supabase/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, connect, ensureDatabase, root } from '../../scripts/lib/database.mjs';
import { readSources } from '../../scripts/lib/sql-sources.mjs';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-two-branches-'));

function git(...args: string[]) {
  const r = spawnSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Plaudit',
      GIT_AUTHOR_EMAIL: 'dev@plaudit.invalid',
      GIT_COMMITTER_NAME: 'Plaudit',
      GIT_COMMITTER_EMAIL: 'dev@plaudit.invalid',
    },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** Rewrites the source file that holds `name`, with `edit` applied to that definition's text. */
function editSource(name: string, edit: (text: string) => string) {
  const definition = readSources(repo).find((d) => d.kind === 'function' && d.name === name)!;
  const file = path.join(repo, definition.file);
  const text = fs.readFileSync(file, 'utf8');
  const { start, end } = definition.statement;
  const edited = edit(text.slice(start, end));
  expect(edited).not.toBe(text.slice(start, end));
  fs.writeFileSync(file, text.slice(0, start) + edited + text.slice(end));
}

/** Rewrites a definition's `comment on` (the one-line description below it). */
function recomment(name: string, description: string) {
  const definition = readSources(repo).find((d) => d.kind === 'function' && d.name === name)!;
  const file = path.join(repo, definition.file);
  const text = fs.readFileSync(file, 'utf8');
  const commentOn = definition.commentOn!;
  fs.writeFileSync(file, text.replace(commentOn, commentOn.replace(/ is '.*';$/s, ` is '${description}';`)));
}

/** Appends to a source file the insert of a trail action, as a feature that writes it does. */
function addTrailAction(file: string, action: string) {
  fs.appendFileSync(
    path.join(repo, 'supabase', 'schemas', file),
    `\n-- The trail's action of ${action}.\n` +
      `insert into plaudit.trail_actions (action, description) values ('${action}', 'The ${action} of a review.')\n` +
      'on conflict (action) do update set description = excluded.description;\n',
  );
}

/**
 * A branch from main: a column of its own (a change), shown by review_json, and submit_review
 * changed too — its description on one branch, a line of its body on the other — and a trail
 * action of its own, in a source file of its own.
 */
function branch(
  name: string,
  column: string,
  stamp: string,
  where: 'first' | 'last',
  submitNote: string,
  action: [file: string, action: string],
) {
  git('checkout', '-q', '-b', name, 'main');
  fs.mkdirSync(path.join(repo, 'supabase', 'changes'), { recursive: true });
  fs.writeFileSync(
    path.join(repo, 'supabase', 'changes', `${stamp}_review_${column}.sql`),
    `alter table plaudit.reviews add column ${column} text;\n`,
  );
  editSource('plaudit.review_json', (text) => {
    const key = `    || ',"${column}":' || coalesce(pg_catalog.to_json(r.${column})::text, 'null')\n`;
    // One branch adds its key near the top of the object, the other near the bottom.
    return where === 'first'
      ? text.replace(/(\n\s*\|\| ',"title":[^\n]*\n)/, `$1${key}`)
      : text.replace(/(\n)(\s*\|\| ',"reply":)/, `$1${key}$2`);
  });
  if (where === 'first') recomment('plaudit.submit_review', submitNote);
  else editSource('plaudit.submit_review', (text) => text.replace(/\$\$\n/, `$$$$\n  -- ${submitNote}\n`));
  addTrailAction(...action);
  git('add', '-A');
  return git('commit', '-qm', `Reviews keep their ${column}`);
}

describe('two branches that change review_json and submit_review', () => {
  const database = `plaudit_merge_${randomBytes(6).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  let merge: { status: number | null; out: string };
  let migrationsBefore: string;

  beforeAll(() => {
    fs.cpSync(path.join(root, 'supabase'), path.join(repo, 'supabase'), {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}tests`),
    });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'Plaudit as it is');
    migrationsBefore = git('ls-files', 'supabase/migrations').out;
    expect(
      branch('locale', 'locale', '20991201000000', 'first', 'Submits a review in its locale.', [
        'one_statement_reads.sql',
        'relocalize',
      ]).status,
    ).toBe(0);
    expect(
      branch('channel', 'channel', '20991201000100', 'last', 'Submits a review from its channel.', [
        'review_replies.sql',
        'rechannel',
      ]).status,
    ).toBe(0);
    git('checkout', '-q', 'main');
    git('merge', '-q', '--no-edit', 'locale');
    merge = git('merge', '--no-edit', 'channel');
  });

  afterAll(async () => {
    fs.rmSync(repo, { recursive: true, force: true });
    const server = connect(process.env.TEST_DATABASE_URL!);
    try {
      await server.unsafe(`drop database if exists "${database}" with (force)`);
    } finally {
      await server.end();
    }
  });

  it('merge with git alone: no conflict, no migration written, no file renamed', () => {
    expect(merge.status, merge.out).toBe(0);
    expect(git('diff', '--name-status', 'HEAD~2', 'HEAD').out.split('\n').filter(Boolean).sort()).toEqual([
      expect.stringMatching(/^M\tsupabase\/schemas\/one_statement_reads\.sql$/),
      expect.stringMatching(/^M\tsupabase\/schemas\/review_replies\.sql$/),
      expect.stringMatching(/^M\tsupabase\/schemas\/review_submission\.sql$/),
      'A\tsupabase/changes/20991201000000_review_locale.sql',
      'A\tsupabase/changes/20991201000100_review_channel.sql',
    ].sort());
    expect(git('ls-files', 'supabase/migrations').out).toBe(migrationsBefore);
  });

  it('the merged tree is what a database of the last release becomes', async () => {
    await ensureDatabase(process.env.TEST_DATABASE_URL!, database);
    await applyMigrations(url.toString(), { base: repo });
    const sql = connect(url.toString());
    try {
      const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Merge', ${
        database.replaceAll('_', '-')
      }) returning id`;
      const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'F') returning id`;
      const [review] = await sql`
        insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                                     locale, channel)
        values (${org.id}, ${form.id}, 5, 'Good', 'Ada', 'ada@example.com', 'unverified', 'en', 'web')
        returning id`;
      const [{ json }] = await sql`
        select plaudit.review_json(r, null) as json from plaudit.reviews r where r.id = ${review.id}`;
      expect(Object.keys(JSON.parse(json)).slice(0, 4)).toEqual(['id', 'rating', 'title', 'locale']);
      expect(JSON.parse(json)).toMatchObject({ locale: 'en', channel: 'web' });
      const [{ comment }] = await sql`
        select obj_description(p.oid, 'pg_proc') as comment from pg_proc p
         where p.proname = 'submit_review' and p.pronamespace = 'plaudit'::regnamespace`;
      expect(comment).toBe('Submits a review in its locale.');
      const [{ body }] = await sql`
        select p.prosrc as body from pg_proc p
         where p.proname = 'submit_review' and p.pronamespace = 'plaudit'::regnamespace`;
      expect(body.startsWith('\n  -- Submits a review from its channel.\n')).toBe(true);
      // Both branches' trail actions are there, and the trail takes them.
      const actions = await sql`select action, description from plaudit.trail_actions
                                 where action in ('relocalize', 'rechannel') order by action`;
      expect(actions).toEqual([
        { action: 'rechannel', description: 'The rechannel of a review.' },
        { action: 'relocalize', description: 'The relocalize of a review.' },
      ]);
      for (const action of ['relocalize', 'rechannel']) {
        await sql`select plaudit.append_moderation_entry(${org.id}, ${review.id}, ${action}, null, 'test:merge')`;
      }
      const [{ entries }] = await sql`select count(*)::int as entries from plaudit.moderation_trail
                                       where org_id = ${org.id} and action in ('relocalize', 'rechannel')`;
      expect(entries).toBe(2);
    } finally {
      await sql.end();
    }
  }, 120_000);

  it('the release written from it takes a database of the last release to exactly that', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'db-release.mjs'), '--check', '--base', repo], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^a release now would take \d+\.\d+\.\d+ to HEAD \(\d+ changes, \d+ lines\)$/m);
    expect(r.status).toBe(0);
  }, 120_000);
});
