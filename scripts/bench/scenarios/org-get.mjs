// org-get: an authenticated GET /api/v1/organizations/:orgId, next to pgbench running the same
// SQL as the same login role, and next to a bare Deno.serve hello-world.
import { createHash } from 'node:crypto';
import { connect } from '../../lib/database.mjs';
import { BENCH_RATE_LIMIT } from '../stack.mjs';

/**
 * The statement the request runs, as the API sends it (postgres.js sends parameterised statements
 * prepared, hence -M prepared): one plaudit.api_* read, which authenticates the key
 * (plaudit.authenticate), and when it may read, reads as plaudit_api and answers the body as JSON
 * text beside the key's row.
 */
export function keyedReadScript({ keyHashHex, read, rateLimit = BENCH_RATE_LIMIT }) {
  const hash = `'\\x${keyHashHex}'::bytea`;
  return [
    '-- an authenticated one-statement read (scripts/bench/scenarios/org-get.mjs)',
    `select * from ${read(hash, rateLimit)};`,
  ].join('\n') + '\n';
}

export function orgGetScript({ keyHashHex, orgId, rateLimit = BENCH_RATE_LIMIT }) {
  return keyedReadScript({
    keyHashHex,
    rateLimit,
    read: (hash, limit) => `plaudit.api_organization(${hash}, '${orgId}', ${limit})`,
  });
}

async function seed(sql) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug, website)
    values ('Bench Org', 'bench-org-get', 'https://bench.example')
    returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench read key', 'read')`;
  return { orgId: org.id, key: key.key };
}

/** Runs the pgbench script's SQL once, as the authenticator, and answers the body it reads. */
export async function scriptBody(authenticatorUrl, script) {
  const statements = script.split('\n').filter((l) => l && !l.startsWith('\\') && !l.startsWith('--'));
  const sql = connect(authenticatorUrl);
  try {
    const [read] = await sql.unsafe(statements[0]);
    if (!read?.allowed || typeof read?.body !== 'string') {
      throw new Error(`the pgbench script reads nothing: ${JSON.stringify(read)}`);
    }
    return read.body;
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
    const script = orgGetScript({ keyHashHex, orgId });
    // Both sides answer the same bytes.
    if ((await scriptBody(stack.authenticatorUrl, script)) !== body) throw new Error('pgbench reads another body');
    const hello = await stack.startHello();
    const floor = await stack.startOneStatement();
    const floorUrl = `${floor.url}organizations/${orgId}`;
    if ((await (await fetch(floorUrl, { headers })).text()) !== body) {
      throw new Error('the floor server reads another body');
    }

    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, headers, seconds: ctx.warmup });
    await ctx.http({ url: floorUrl, headers, seconds: ctx.warmup });
    await ctx.http({ url: hello.url, seconds: ctx.warmup });
    return { url, headers, script, helloUrl: hello.url, floorUrl, floorPid: floor.child.pid };
  },

  measurements: [
    {
      key: 'api',
      name: 'API GET /organizations/:orgId',
      run: (ctx, s) => ctx.http({ url: s.url, headers: s.headers }),
    },
    {
      key: 'pgbench',
      name: 'pgbench, same SQL (-M prepared)',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
    {
      key: 'floor',
      name: 'Deno.serve + postgres.js, the statement alone',
      apiPid: (_ctx, s) => s.floorPid,
      run: (ctx, s) => ctx.http({ url: s.floorUrl, headers: s.headers }),
    },
    {
      key: 'deno',
      name: 'bare Deno.serve hello-world',
      run: (ctx, s) => ctx.http({ url: s.helloUrl }),
    },
  ],

  ratios: [
    { name: 'API ÷ pgbench', of: 'api', over: 'pgbench', target: 0.6 },
    { name: 'API ÷ the statement alone', of: 'api', over: 'floor' },
    { name: 'API ÷ bare Deno', of: 'api', over: 'deno' },
  ],
};
