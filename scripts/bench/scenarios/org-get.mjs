// org-get: an authenticated GET /api/v1/organizations/:orgId, next to pgbench running the same
// SQL as the same login role, and next to a bare Deno.serve hello-world.
// BENCH_PGBENCH_PIPELINE=0 sends pgbench's statements one round trip each instead of pipelined.
import { createHash } from 'node:crypto';
import { connect } from '../../lib/database.mjs';
import { BENCH_RATE_LIMIT } from '../stack.mjs';

/**
 * The statements the request runs, in the order the API sends them:
 *   1. apiKeyAuth, on one reserved connection: plaudit.authenticate(sha256(key),
 *      RATE_LIMIT_PER_MINUTE) in its own implicit transaction, pipelined with the tenant
 *      transaction's set-up (begin read only, set_config, set local role);
 *   2. the handler's select;
 *   3. the read-only transaction's end (the API sends it after answering).
 * postgres.js follows every statement with a Sync, so authenticate commits before the begin.
 * pgbench 15 has no \syncpipeline: inside one of its pipelines authenticate would share the
 * tenant transaction (and be rolled back with it), so here it goes in a round trip of its own,
 * and the set-up is pipelined with the select instead — the same statements, one more round trip
 * for pgbench. postgres.js sends parameterised statements prepared, hence -M prepared.
 */
export function orgGetScript({ keyHashHex, orgId, rateLimit = BENCH_RATE_LIMIT, pipeline = true }) {
  const lines = [
    '-- GET /api/v1/organizations/:orgId, statement by statement (scripts/bench/scenarios/org-get.mjs)',
    `select * from plaudit.authenticate('\\x${keyHashHex}'::bytea, ${rateLimit});`,
    pipeline ? '\\startpipeline' : null,
    'begin read only;',
    `select set_config('plaudit.org_id', '${orgId}', true);`,
    'set local role plaudit_api;',
    `select id, name, slug, website, created_at from plaudit.organizations where id = '${orgId}';`,
    pipeline ? '\\endpipeline' : null,
    'rollback;',
  ];
  return lines.filter((l) => l !== null).join('\n') + '\n';
}

async function seed(sql) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug, website)
    values ('Bench Org', 'bench-org-get', 'https://bench.example')
    returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench read key', 'read')`;
  return { orgId: org.id, key: key.key };
}

/** Runs the pgbench script's SQL once, as the authenticator, and checks that it finds the org. */
async function checkScript(authenticatorUrl, script, orgId) {
  const statements = script.split('\n').filter((l) => l && !l.startsWith('\\') && !l.startsWith('--'));
  const sql = connect(authenticatorUrl);
  try {
    const results = [];
    for (const statement of statements) results.push(await sql.unsafe(statement));
    const [auth] = results[0];
    const rows = results[statements.findIndex((s) => s.includes('from plaudit.organizations'))];
    if (!auth?.allowed || rows.length !== 1 || rows[0].id !== orgId) {
      throw new Error(`the pgbench script does not find the organization: ${JSON.stringify({ auth, rows })}`);
    }
  } finally {
    await sql.end();
  }
}

export default {
  name: 'org-get',
  description: 'authenticated GET /api/v1/organizations/:orgId, next to pgbench running its SQL and a bare Deno.serve',

  /** Seeds an organization and a read key, checks both sides answer what they should, warms up. */
  async setup(ctx) {
    const { stack } = ctx;
    const { orgId, key } = await seed(stack.sql);
    const url = `${stack.api.url}/api/v1/organizations/${orgId}`;
    const headers = { Authorization: `Bearer ${key}` };

    // Never benchmark a 401: the request must answer 200 with this organization.
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (res.status !== 200 || JSON.parse(body).id !== orgId) {
      throw new Error(`GET ${url} answered ${res.status}: ${body}`);
    }

    const keyHashHex = createHash('sha256').update(key, 'utf8').digest('hex');
    const pipeline = ctx.env.BENCH_PGBENCH_PIPELINE !== '0';
    const script = orgGetScript({ keyHashHex, orgId, pipeline });
    await checkScript(stack.authenticatorUrl, script, orgId);
    const hello = await stack.startHello();

    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, headers, seconds: ctx.warmup });
    await ctx.http({ url: hello.url, seconds: ctx.warmup });
    return { url, headers, script, pipeline, helloUrl: hello.url };
  },

  measurements: [
    {
      key: 'api',
      name: 'API GET /organizations/:orgId',
      run: (ctx, s) => ctx.http({ url: s.url, headers: s.headers }),
    },
    {
      key: 'pgbench',
      name: (s) => `pgbench, same SQL (-M prepared${s.pipeline ? ', pipelined' : ''})`,
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
    {
      key: 'deno',
      name: 'bare Deno.serve hello-world',
      run: (ctx, s) => ctx.http({ url: s.helloUrl }),
    },
  ],

  ratios: [
    { name: 'API ÷ pgbench', of: 'api', over: 'pgbench', target: 0.6 },
    { name: 'API ÷ bare Deno', of: 'api', over: 'deno' },
  ],
};
