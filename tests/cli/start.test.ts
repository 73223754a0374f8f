import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForHealth } from '../../scripts/lib/api-server.mjs';
import { freePort } from '../../scripts/lib/postgres.mjs';

function start(env: Record<string, string>) {
  // Its own PostgreSQL: no DATABASE_URL from the surroundings.
  const { DATABASE_URL: _d, API_DATABASE_URL: _a, ...inherited } = process.env;
  // A process group of its own, as in a terminal, where Ctrl-C signals every process of the group.
  const child = spawn('node', ['scripts/start.mjs'], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('runs its own PostgreSQL, serves the API, keeps data across starts and stops everything on Ctrl-C', async () => {
    const dataDir = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'start-'));
    const env = {
      PORT: String(await freePort()),
      PLAUDIT_DB_PORT: String(await freePort()),
      PLAUDIT_DATA_DIR: dataDir,
    };
    const url = `http://127.0.0.1:${env.PORT}`;

    const first = start(env);
    await waitForHealth(url, 60_000);
    for (let i = 0; i < 50 && !first.output().includes('Plaudit is running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first.output()).toContain(`${url}/api/v1`);
    expect(first.output()).toContain(`${url}/docs`);
    expect(first.output()).toContain('npm run --silent admin -- org create');
    expect(first.output()).toContain(`Dashboard ${url}/app`);
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(fs.existsSync(pidFile)).toBe(true);

    // An organization made now must still be there after a restart.
    const made = spawnSync('node', [
      'scripts/admin.mjs',
      'org',
      'create',
      '--name',
      'Kept',
      '--slug',
      'kept',
      '--owner-email',
      'keeper@kept.example',
    ], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(made.status).toBe(0);
    const { organization, api_key } = JSON.parse(made.stdout);

    // Its owner signs in as the banner says: the mail is captured at /_dev/mail, its link signs in.
    const asked = await fetch(`${url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@kept.example' }),
    });
    expect(asked.status).toBe(202);
    let token: string | undefined;
    for (let i = 0; i < 200 && !token; i++) {
      const { data } = await (await fetch(`${url}/_dev/mail/messages`)).json() as { data: { text: string }[] };
      token = data.map((m) => /\/app\/sign-in#token=([0-9A-Za-z]{43})/.exec(m.text)?.[1]).find(Boolean);
      if (!token) await new Promise((r) => setTimeout(r, 100));
    }
    const signedIn = await fetch(`${url}/api/v1/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).organizations).toEqual([
      expect.objectContaining({ id: organization.id, role: 'owner', scope: 'admin' }),
    ]);

    // Ctrl-C in a terminal: SIGINT to the whole group (npm start, Deno, PostgreSQL) at once.
    process.kill(-first.child.pid!, 'SIGINT');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(pidFile)).toBe(false);
    // Every request has its log line on stdout, the last ones written at exit.
    const lines = first.output().split('\n').filter((l) => l.startsWith('{"time"')).map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request', route: '/api/v1/auth/verify', status: 200 }),
    );
    await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
    // Nothing of the group is left behind: no API, no worker, no database.
    for (let i = 0; i < 50 && groupAlive(first.child.pid!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(first.child.pid!)).toBe(false);

    const second = start(env);
    await waitForHealth(url, 60_000);
    const res = await fetch(`${url}/api/v1/organizations/${organization.id}`, {
      headers: { authorization: `Bearer ${api_key.key}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).slug).toBe('kept');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(fs.existsSync(pidFile)).toBe(false);
    for (let i = 0; i < 50 && groupAlive(second.child.pid!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(second.child.pid!)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('stops what it already started when Ctrl-C comes while the API is still starting', async () => {
    const dataDir = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'start-'));
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      PLAUDIT_DB_PORT: String(await freePort()),
      PLAUDIT_DATA_DIR: dataDir,
    };
    const started = start(env);
    // The moment the API's Deno process exists, long before it answers: Deno compiles first.
    const apiSpawned = () =>
      spawnSync('pgrep', ['-g', String(started.child.pid), '-f', 'functions/api/index.ts']).status === 0;
    for (let i = 0; i < 1200 && !apiSpawned() && started.child.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(apiSpawned()).toBe(true);

    process.kill(-started.child.pid!, 'SIGINT');
    expect(await started.exited, started.output()).toBe(0);
    expect(started.output()).not.toContain('Plaudit is running');
    for (let i = 0; i < 50 && groupAlive(started.child.pid!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(started.child.pid!)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
});
