// The README's "Deploying to a hosted Supabase project", step by step, under hosted Supabase's
// conditions (scripts/lib/supabase-conditions.mjs): a cluster made by supabase_admin, `postgres`
// demoted, pg_cron and pg_net made by supabase_admin with Supabase's grants, PgBouncer in
// transaction mode standing in for Supavisor. The release is applied by the real Supabase CLI as
// `postgres`; the API and the worker function run on Deno with an Edge Function's 256 MB heap,
// through the pooler, with prepared statements off; pg_cron rings the worker through pg_net's
// interface, and the rig's drainer of net.http_request_queue sends that ring over real HTTP.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../scripts/lib/api-server.mjs';
import { root } from '../../scripts/lib/database.mjs';
import { freePort } from '../../scripts/lib/postgres.mjs';
import { drainNetQueue, startSupabaseConditions } from '../../scripts/lib/supabase-conditions.mjs';
import { startWorkerFunction } from '../../scripts/lib/worker-process.mjs';
import { api as apiCall, type RequestOptions } from '../helpers/http.ts';
import { startReceiver } from '../helpers/receiver.ts';

/** An Edge Function's memory: the API and the worker run with this heap. */
const EDGE_HEAP = ['--v8-flags=--max-old-space-size=256'];
const WORKER_SECRET = 'hosted-rig-worker-secret';

type Rig = Awaited<ReturnType<typeof startSupabaseConditions>>;
let rig: Rig;
let drainer: Awaited<ReturnType<typeof drainNetQueue>>;
let asPostgres: postgres.Sql;
let asAdmin: postgres.Sql;
let apiUrl: string;
let workerUrl: string;
const stops: (() => Promise<unknown>)[] = [];
// In the run's folder, which npm test keeps when something failed (the logs of the rig, the API and
// the worker); open to the postgres user, so that the rig's cluster lives in it too.
const tmp = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? os.tmpdir(), 'hosted-'));
fs.chmodSync(tmp, 0o755);

const call = (method: string, p: string, opts: RequestOptions = {}) => apiCall(method, p, { ...opts, baseUrl: apiUrl });

/** `npm run admin` as the README runs it against the project (DATABASE_URL: the postgres login). */
function admin(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'admin.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: rig.postgresUrl },
  });
  if (r.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** What `supabase db push` applies: the release of HEAD (npm run db:release -- … --out), else the checkout's. */
function releaseWorkdir() {
  const out = path.join(tmp, 'release');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'db-release.mjs'), '0.0.0-hosted', '--out', out], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`db:release failed: ${r.stderr || r.stdout}`);
  if (!fs.existsSync(path.join(out, 'supabase', 'migrations'))) return root; // HEAD is the last release
  fs.copyFileSync(path.join(root, 'supabase', 'config.toml'), path.join(out, 'supabase', 'config.toml'));
  return out;
}

/**
 * The Supabase CLI as the README's deploy steps run it, `npx supabase`, at the version they were
 * tried with. Not a dependency of the project: its package names a binary package per platform,
 * and a lockfile must then hold them all.
 */
const SUPABASE_CLI = 'supabase@3.1.0';

/** `npx supabase db push` against the project's database, as `postgres`. */
function dbPush(workdir: string) {
  const home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  const npx = path.join(path.dirname(process.execPath), 'npx');
  const args = ['--yes', SUPABASE_CLI, 'db', 'push', `--remote=${rig.postgresUrl}`, '--yes', '--workdir', workdir];
  return spawnSync(npx, args, {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: home,
      npm_config_cache: path.join(os.homedir(), '.npm'),
      SUPABASE_TELEMETRY_DISABLED: '1',
      DO_NOT_TRACK: '1',
    },
    timeout: 300_000,
  });
}

beforeAll(async () => {
  rig = await startSupabaseConditions({ dir: path.join(tmp, 'cluster') });
  stops.push(() => rig.stop());
  asAdmin = postgres(rig.adminUrl, { max: 1, prepare: false, onnotice: () => {} });
  asPostgres = postgres(rig.postgresUrl, { max: 2, prepare: false, onnotice: () => {} });
  stops.push(() => asAdmin.end(), () => asPostgres.end());

  // 1. supabase db push (the release), as postgres.
  const pushed = dbPush(releaseWorkdir());
  if (pushed.status !== 0) throw new Error(`supabase db push failed:\n${pushed.stdout}\n${pushed.stderr}`);
  // 2a. pg_cron is told of its jobs again in a small transaction of its own (README, step 2).
  await asPostgres`select cron.alter_job(jobid, active := true) from cron.job where jobname like 'plaudit-%'`;

  // 2. The API's login role gets a password, in the SQL editor (as postgres).
  const password = 'hosted-rig-authenticator';
  await asPostgres.unsafe(`alter role plaudit_authenticator with password '${password}'`);
  const poolerUrl = rig.poolerUrl('plaudit_authenticator', password);

  // 5. The worker function, then the worker's address and secret where pg_cron's bell reads them.
  const workerPort = await freePort();
  const worker = await startWorkerFunction({
    databaseUrl: poolerUrl,
    port: workerPort,
    secret: WORKER_SECRET,
    flags: EDGE_HEAP,
    env: {
      PLAUDIT_ENV: 'development', // the webhook receivers are on 127.0.0.1
      DATABASE_PREPARE: 'false',
      EMAIL_TRANSPORT: 'none',
      WORKER_DRAIN_MS: '2000', // a drain ends soon, so a retry needs a ring of its own
      WORKER_RETRY_SCALE: '0.2',
    },
    stdio: fs.openSync(path.join(tmp, 'worker.log'), 'a'),
  });
  workerUrl = worker.url;
  stops.push(worker.stop);
  await asPostgres`insert into plaudit.worker_bell (url, secret) values (${workerUrl}, ${WORKER_SECRET})
                   on conflict (id) do update set url = excluded.url, secret = excluded.secret`;

  // 3-4. The API, with its secrets: the pooler's URL, and the worker to ring after writes.
  const api = await startApi({
    port: await freePort(),
    databaseUrl: poolerUrl,
    flags: EDGE_HEAP,
    env: {
      PLAUDIT_ENV: 'development',
      DATABASE_PREPARE: 'false',
      WORKER_URL: workerUrl,
      WORKER_SECRET,
      TRUST_PROXY: 'true',
      MEDIA_DIR: path.join(tmp, 'media'),
    },
    stdio: fs.openSync(path.join(tmp, 'api.log'), 'a'),
  });
  apiUrl = api.url;
  stops.push(api.stop);

  // pg_net's background worker, in the rig.
  drainer = await drainNetQueue(rig.adminUrl);
  stops.push(() => drainer.stop());
}, 900_000);

afterAll(async () => {
  if (drainer) fs.writeFileSync(path.join(tmp, 'pg_net-requests.json'), JSON.stringify(drainer.sent, null, 1));
  for (const stop of stops.reverse()) await stop().catch(() => {});
  if (!process.env.TEST_TMP_DIR) fs.rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('under hosted Supabase conditions', () => {
  let acme: { org: { id: string; slug: string }; key: string; write: string; read: string };
  let globex: typeof acme;
  let formId: string;

  it('applied the release as postgres, and plaudit_owner owns every object of schema plaudit', async () => {
    expect((await asPostgres`select rolsuper from pg_roles where rolname = current_user`)[0].rolsuper).toBe(false);
    const foreign = await asAdmin`
      select c.oid::regclass::text as name, pg_get_userbyid(c.relowner) as owner from pg_class c
       where c.relnamespace = 'plaudit'::regnamespace and c.relowner <> 'plaudit_owner'::regrole
      union all
      select p.oid::regprocedure::text, pg_get_userbyid(p.proowner) from pg_proc p
       where p.pronamespace = 'plaudit'::regnamespace and p.proowner <> 'plaudit_owner'::regrole
      union all
      select t.oid::regtype::text, pg_get_userbyid(t.typowner) from pg_type t
       where t.typnamespace = 'plaudit'::regnamespace and t.typowner <> 'plaudit_owner'::regrole`;
    expect(foreign).toEqual([]);
  });

  it("holds hosted Supabase's refusals: postgres can neither set a database parameter nor pass pg_net on", async () => {
    await expect(asPostgres.unsafe(`alter database postgres set plaudit.worker_url = 'https://x'`)).rejects.toThrow(
      'permission denied to set parameter "plaudit.worker_url"',
    );
    const [rights] = await asAdmin`
      select has_function_privilege('postgres', 'net.http_post(text,jsonb,jsonb,jsonb,integer)', 'execute') as postgres,
             has_function_privilege('plaudit_owner', 'net.http_post(text,jsonb,jsonb,jsonb,integer)', 'execute') as owner`;
    expect(rights).toEqual({ postgres: true, owner: false });
  });

  it('answers health through the pooler', async () => {
    const res = await call('GET', '/api/v1/health');
    expect(res.status).toBe(200);
  });

  it('makes organizations and keys with the admin command line, as postgres', async () => {
    const make = (slug: string) => {
      const made = admin('org', 'create', '--name', slug, '--slug', slug, '--owner-email', `owner@${slug}.example`);
      const write = admin('key', 'create', '--org', slug, '--scope', 'write').api_key.key;
      const read = admin('key', 'create', '--org', slug, '--scope', 'read').api_key.key;
      return { org: made.organization, key: made.api_key.key, write, read };
    };
    const suffix = Math.random().toString(36).slice(2, 8);
    acme = make(`acme-${suffix}`);
    globex = make(`globex-${suffix}`);
    const res = await call('GET', `/api/v1/organizations/${acme.org.id}`, { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(acme.org.slug);
  });

  it('takes a review and moderates it', async () => {
    const form = await call('POST', `/api/v1/organizations/${acme.org.id}/review-forms`, {
      key: acme.write,
      body: { name: 'Hosted' },
    });
    expect(form.status).toBe(201);
    formId = form.body.id;
    const submitted = await call('POST', '/api/v1/reviews', {
      body: {
        form_id: formId,
        rating: 4,
        title: 'Hosted',
        content: 'Through the pooler',
        reviewer_name: 'Ada',
        reviewer_email: 'ada@example.com',
      },
      headers: { 'x-forwarded-for': '198.18.0.1' },
    });
    expect(submitted.status).toBe(201);
    const id = submitted.body.id ?? submitted.body.review?.id;
    const hidden = await call('PATCH', `/api/v1/organizations/${acme.org.id}/reviews/${id}/moderate`, {
      key: acme.write,
      body: { action: 'hide', reason: 'checking' },
    });
    expect(hidden.status).toBe(200);
    expect(hidden.body.is_hidden).toBe(true);
  });

  it('keeps tenants apart, also many requests at once through the pooler', async () => {
    const other = await call('GET', `/api/v1/organizations/${acme.org.id}/reviews`, { key: globex.read });
    expect([403, 404]).toContain(other.status);
    const lists = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const t = i % 2 ? acme : globex;
        return call('GET', `/api/v1/organizations/${t.org.id}/reviews?include_hidden=true`, { key: t.read })
          .then((r) => ({ t, r }));
      }),
    );
    for (const { t, r } of lists) {
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBe(t === acme ? 1 : 0);
    }
  });

  it(
    'pg_cron rings the worker through net.http_post: an event and an export written without the API are delivered, and a failed delivery is retried',
    { timeout: 300_000 },
    async () => {
      const receiver = await startReceiver((_req, index) => ({ status: index === 0 ? 500 : 200 }));
      const exportsReceiver = await startReceiver();
      try {
        const endpoint = await call('POST', `/api/v1/organizations/${globex.org.id}/webhooks`, {
          key: globex.key,
          body: { url: receiver.url, events: ['review.created'] },
        });
        expect(endpoint.status).toBe(201);
        const exportsEndpoint = await call('POST', `/api/v1/organizations/${globex.org.id}/webhooks`, {
          key: globex.key,
          body: { url: exportsReceiver.url, events: ['export.completed'] },
        });
        expect(exportsEndpoint.status).toBe(201);
        // An event written in SQL, once the API's ring for the registration has been answered:
        // no API write rings the worker for it.
        await new Promise((r) => setTimeout(r, 3000));
        const started = Date.now();
        await asPostgres`select plaudit.emit_event(${globex.org.id}, 'review.created', '{"id":"rung-by-cron"}'::jsonb)`;
        // An export queued in SQL too: pg_cron's job (or the worker it rings) makes it, and its
        // export.completed goes out on a ring of pg_cron's.
        const [queued] = await asPostgres`
          insert into plaudit.exports (org_id, format, public_url)
          values (${globex.org.id}, 'csv', 'https://reviews.example') returning id`;
        // First attempt: 500. The worker's drain ends; only pg_cron's bell brings the retry.
        const [first] = await receiver.waitFor(1, 150_000);
        const [, second] = await receiver.waitFor(2, 150_000);
        expect(JSON.parse(first.body).data).toEqual({ id: 'rung-by-cron' });
        expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
        expect(second.headers['x-webhook-attempt']).toBe('2');
        // Each attempt was brought by a ring that pg_net's queue sent before it, as pg_cron's job made it.
        const rings = drainer.sent.filter((s) => s.url === workerUrl && s.at >= started);
        const seen = JSON.stringify({ started, first: first.at, second: second.at, rings });
        expect(rings.filter((s) => s.at <= first.at).length, seen).toBeGreaterThanOrEqual(1);
        expect(rings.filter((s) => s.at > first.at && s.at <= second.at).length, seen).toBeGreaterThanOrEqual(1);
        await expect.poll(() => rings.every((s) => s.status_code === 200), { timeout: 20_000 }).toBe(true);
        expect(rings.every((s) => s.headers.Authorization === `Bearer ${WORKER_SECRET}`)).toBe(true);
        const runs = await asAdmin`
          select d.username, d.status from cron.job_run_details d join cron.job j using (jobid)
           where j.jobname = 'plaudit-wake-worker' and d.start_time >= to_timestamp(${started / 1000})`;
        expect(runs.length).toBeGreaterThanOrEqual(2);
        expect(runs.every((r) => r.username === 'postgres' && r.status === 'succeeded')).toBe(true);
        const delivery = await call(
          'GET',
          `/api/v1/organizations/${globex.org.id}/webhooks/${endpoint.body.id}/deliveries`,
          {
            key: globex.key,
          },
        );
        expect(delivery.body.data[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
        const [completed] = await exportsReceiver.waitFor(1, 150_000);
        expect(JSON.parse(completed.body)).toMatchObject({
          event: 'export.completed',
          data: { id: queued.id, status: 'completed' },
        });
      } finally {
        await receiver.close();
        await exportsReceiver.close();
      }
    },
  );

  it('runs every pg_cron job as postgres, and none fails', async () => {
    const jobs = await asAdmin`select jobname, username from cron.job where jobname like 'plaudit-%' order by jobname`;
    expect(jobs.map((j) => j.jobname)).toEqual(expect.arrayContaining(['plaudit-exports', 'plaudit-wake-worker']));
    expect(jobs.every((j) => j.username === 'postgres')).toBe(true);
    const runs = await asAdmin`
      select j.jobname, d.username, d.status, d.return_message
        from cron.job_run_details d join cron.job j using (jobid)`;
    // Minutes have passed since the release: each job has run, as postgres, and none has failed.
    for (const { jobname } of jobs) {
      expect(runs.filter((r) => r.jobname === jobname && r.status === 'succeeded').length, jobname).toBeGreaterThan(0);
    }
    expect(runs.filter((r) => !['succeeded', 'running', 'starting'].includes(r.status))).toEqual([]);
    expect(runs.every((r) => r.username === 'postgres')).toBe(true);
  });

  it('finds the worker in Vault when the bell has no row', async () => {
    await asPostgres`delete from plaudit.worker_bell`;
    await asPostgres`select vault.create_secret(${`${workerUrl}/?from=vault`}, 'plaudit_worker_url')`;
    await asPostgres`select vault.create_secret(${WORKER_SECRET}, 'plaudit_worker_secret')`;
    // Something due, so that the bell rings: an export (which the worker then makes).
    const exp = await call('POST', `/api/v1/organizations/${acme.org.id}/exports`, {
      key: acme.key,
      body: { format: 'csv' },
    });
    expect(exp.status).toBe(201);
    const [ring] = await asPostgres`select plaudit.ring_worker() as id`;
    expect(ring.id).not.toBeNull();
    await expect.poll(() => drainer.sent.find((s) => s.id === Number(ring.id))?.status_code, { timeout: 20_000 })
      .toBe(200);
    expect(drainer.sent.find((s) => s.id === Number(ring.id))!.url).toBe(`${workerUrl}/?from=vault`);
  });
});
