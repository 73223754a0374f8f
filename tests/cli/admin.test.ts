import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { db, uniqueSlug } from '../helpers/db.ts';
import { api } from '../helpers/http.ts';

function admin(...args: string[]) {
  const r = spawnSync('node', ['scripts/admin.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('admin command line', () => {
  const slug = uniqueSlug('cli');

  it('org create prints exactly one JSON object with the organization and an admin key', async () => {
    const r = admin('org', 'create', '--name', 'Acme Inc', '--slug', slug);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      organization: { id: expect.any(String), name: 'Acme Inc', slug },
      api_key: {
        id: expect.any(String),
        key: expect.stringMatching(/^rk_/),
        prefix: out.api_key.key.slice(0, 11),
        scope: 'admin',
      },
    });
    const res = await api('GET', `/api/v1/organizations/${out.organization.id}`, { key: out.api_key.key });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(slug);
  });

  it("org create --owner-email makes that person the organization's owner, its first member", async () => {
    const ownerSlug = uniqueSlug('cli-owner');
    const r = admin(
      'org',
      'create',
      '--name',
      'Owned Inc',
      '--slug',
      ownerSlug,
      '--owner-email',
      'ada@owned.example',
      '--owner-name',
      'Ada',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.owner).toEqual({ id: expect.any(String), email: 'ada@owned.example', name: 'Ada', role: 'owner' });
    const members = await api('GET', `/api/v1/organizations/${out.organization.id}/members`, { key: out.api_key.key });
    expect(members.body.data).toEqual([
      expect.objectContaining({ email: 'ada@owned.example', name: 'Ada', role: 'owner' }),
    ]);
    const bad = admin(
      'org',
      'create',
      '--name',
      'Bad Owner',
      '--slug',
      uniqueSlug('cli-bad'),
      '--owner-email',
      'nobody',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toBe('plaudit admin: --owner-email must be an e-mail address');
  });

  it('a taken slug exits non-zero with one line on stderr and nothing on stdout', () => {
    const r = admin('org', 'create', '--name', 'Other', '--slug', slug);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual(['plaudit admin: that slug is already taken']);
  });

  it('an invalid slug is explained', () => {
    const r = admin('org', 'create', '--name', 'Bad', '--slug', 'Not Valid');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/lowercase letters, digits and hyphens/);
  });

  it('org list includes the organization', () => {
    const r = admin('org', 'list');
    expect(r.code).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data.map((o: { slug: string }) => o.slug)).toContain(slug);
  });

  it('key create issues a key of the asked scope that works', async () => {
    const r = admin('key', 'create', '--org', slug, '--scope', 'read', '--rate-limit', '30');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.api_key).toMatchObject({ scope: 'read', rate_limit_per_minute: 30, key: expect.stringMatching(/^rk_/) });
    const [row] = await db`select scope from plaudit.api_keys where id = ${out.api_key.id}`;
    expect(row.scope).toBe('read');
    const res = await api('PATCH', `/api/v1/organizations/${out.organization.id}`, {
      key: out.api_key.key,
      body: { name: 'x' },
    });
    expect(res.status).toBe(403);
  });

  it('key create for an unknown organization or scope fails clearly', () => {
    expect(admin('key', 'create', '--org', 'no-such-org-here', '--scope', 'read').stderr).toMatch(
      /no organization with slug/,
    );
    const bad = admin('key', 'create', '--org', slug, '--scope', 'root');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--scope must be read, write or admin/);
  });
});
