// Review scenarios (docs/reviews.md): the public feed (uncached and revalidated), public
// submission, the authenticated list at page 1 and page 1,000, and meta.total on an organization
// with a million reviews. Each API figure sits next to pgbench running the same SQL.
//
//   BENCH_REVIEWS=100000     reviews of the organization the feed and list scenarios read
//   BENCH_BIG_REVIEWS=1000000 reviews of the organization of the meta.total scenario
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { keyedReadScript, scriptBody } from './org-get.mjs';
import { positive } from '../stats.mjs';

/**
 * An organization with `count` visible reviews, loaded in one statement with triggers off
 * (session_replication_role = replica, superuser only), then its statistics rebuilt and the
 * table vacuumed, as after a bulk import. Cached on the stack: scenarios share it.
 */
export async function seedOrganization(ctx, slug, count) {
  const { stack } = ctx;
  stack.reviewSeeds ??= {};
  if (stack.reviewSeeds[slug]) return stack.reviewSeeds[slug];
  const sql = stack.sql;
  const started = Date.now();
  ctx.log(`seeding ${count.toLocaleString('en')} reviews into ${slug}`);
  const [org] = await sql`insert into plaudit.organizations (name, slug) values (${
    'Bench ' + slug
  }, ${slug}) returning id`;
  const [form] =
    await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench form') returning id`;
  const [key] = await sql`select id, key from plaudit.issue_api_key(${org.id}, 'bench', 'read')`;
  const chunk = 250_000;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                     verification_status, created_at)
        select ${org.id}, ${form.id}, 1 + i % 5, 'Review ' || i,
               'A bench review, number ' || i || ', about a mug that keeps tea warm for ' || (i % 97) || ' minutes.',
               'Reviewer ' || i, 'reviewer' || i || '@example.com', 'unverified',
               timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => i * 60)
        from generate_series(${from}::integer, ${to}::integer) i`;
    });
  }
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  await sql`vacuum (analyze) plaudit.reviews`;
  ctx.log(`seeded ${slug} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const seed = { orgId: org.id, formId: form.id, slug, key: key.key, keyId: key.id };
  stack.reviewSeeds[slug] = seed;
  return seed;
}

/** The API's per-address limits, out of the way: the load comes from few addresses. */
export const UNLIMITED_PUBLIC = {
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
  SUBMIT_RATE_LIMIT_PER_MINUTE: '1000000000',
  TRUST_PROXY: 'true',
};

/** An API instance of the scenario's own whose per-IP limits never answer 429 (public routes). */
export async function publicApi(ctx) {
  const { stack } = ctx;
  stack.reviewPublicApi ??= await stack.startExtraApi({ env: UNLIMITED_PUBLIC });
  return stack.reviewPublicApi;
}

export async function expectStatus(url, init, status) {
  const res = await fetch(url, init);
  const body = await res.text();
  if (res.status !== status) {
    throw new Error(`${init?.method ?? 'GET'} ${url} answered ${res.status}, not ${status}: ${body.slice(0, 300)}`);
  }
  return { res, body };
}

/** wrk with a Lua script that shapes each request (a new body and address each time). */
export function wrkScript(ctx, { url, lua, seconds = ctx.seconds }) {
  const script = path.join(ctx.stack.dir, `wrk-${Date.now()}.lua`);
  fs.writeFileSync(script, lua);
  return ctx.http({ url, script, seconds });
}

/**
 * wrk's Lua for POST /api/v1/reviews to `formId`: unique text and address per request (the
 * duplicate rule), one client address per request; `prefix` keeps runs apart.
 */
export const submitLua = (formId, prefix) => `
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
request = function()
  n = n + 1
  local id = string.format("%s-%d-%d", "${prefix}", tid, n)
  local body = string.format('{"form_id":"${formId}","rating":%d,"title":"Bench","content":"Bench submission %s","reviewer_name":"Bench","reviewer_email":"%s@example.com"}', n % 5 + 1, id, id)
  local ip = string.format("10.%d.%d.%d", tid, math.floor(n / 256) % 256, n % 256)
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = ip }, body)
end
`;

const sqlText = (s) => `'${String(s).replaceAll("'", "''")}'`;

// ---------------------------------------------------------------------------------------------
// Scenarios, in the shape scripts/bench.mjs expects: setup → state, measurements, ratios (req/s
// of one measurement over another's).

export const publicFeed = {
  name: 'reviews-public-feed',
  description:
    'GET /public/profiles/:slug/reviews (page 1 of 100,000 reviews): uncached next to pgbench running its SQL, and revalidated with If-None-Match (304)',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const api = await publicApi(ctx);
    const url = `${api.url}/api/v1/public/profiles/${seed.slug}/reviews`;
    const { res, body } = await expectStatus(url, {}, 200);
    const page = JSON.parse(body);
    if (page.data.length !== 20 || page.meta.total < 20) throw new Error(`unexpected feed page: ${body.slice(0, 300)}`);
    const etag = res.headers.get('etag');
    await expectStatus(url, { headers: { 'if-none-match': etag } }, 304);
    // The API's statements: one each, switching to plaudit_public inside.
    const script = `select version, body from plaudit.public_read_review_page(${
      sqlText(seed.slug)
    }, 'profile', 1, 20, 'newest', null, false);\n`;
    const revalidate = `select plaudit.public_read_version(${sqlText(seed.slug)}) as v;\n`;
    const floor = await ctx.stack.startOneStatement();
    const floorUrl = `${floor.url}profiles/${seed.slug}`;
    if ((await (await fetch(floorUrl)).text()) !== body) throw new Error('the floor server reads another body');
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, seconds: ctx.warmup });
    await ctx.http({ url: floorUrl, seconds: ctx.warmup });
    await ctx.http({ url, headers: { 'If-None-Match': etag }, seconds: ctx.warmup });
    return { url, etag, script, revalidate, floorUrl, floorPid: floor.child.pid };
  },

  measurements: [
    {
      key: 'uncached',
      name: 'API feed page 1, uncached (200)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.url }),
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
      run: (ctx, s) => ctx.http({ url: s.floorUrl }),
    },
    {
      key: 'revalidated',
      name: 'API feed, If-None-Match (304)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.url, headers: { 'If-None-Match': s.etag } }),
    },
    {
      key: 'pgversion',
      name: 'pgbench, public_version only',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.revalidate }),
    },
  ],

  ratios: [
    { name: 'uncached ÷ pgbench', of: 'uncached', over: 'pgbench', target: 0.85 },
    { name: 'uncached ÷ the statement alone', of: 'uncached', over: 'floor' },
    { name: '304 ÷ uncached', of: 'revalidated', over: 'uncached', target: 2 },
  ],
};

export const publicSubmit = {
  name: 'reviews-submit',
  description:
    'POST /api/v1/reviews (each request a new review from a new address) next to pgbench running the same plaudit.submit_review',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const api = await publicApi(ctx);
    const url = `${api.url}/api/v1/reviews`;
    await expectStatus(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      body: JSON.stringify({
        form_id: seed.formId,
        rating: 5,
        content: 'Bench check',
        reviewer_name: 'B',
        reviewer_email: 'check@example.com',
      }),
    }, 201);
    const lua = (prefix) => submitLua(seed.formId, prefix);
    // What the route sends: the bucket is 'submit:' + hex SHA-256 of the client address.
    const script = [
      '\\set n random(1, 2000000000)',
      '\\startpipeline',
      'begin;',
      'set local role plaudit_public;',
      // The review as the API sends it: one JSON object, made the composite by its fields' names.
      `select * from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object('form_id', '${seed.formId}', 'rating', 1 + :n % 5, 'title', 'Bench', 'content', 'Bench pgbench submission ' || :n, 'reviewer_name', 'Bench', 'reviewer_email', 'p' || :n || '@example.com', 'honeypot', false)), 'submit:' || encode(sha256(convert_to(:n::text, 'UTF8')), 'hex'), 1000000000, 'http://127.0.0.1');`,
      'commit;',
      '\\endpipeline',
    ].join('\n') + '\n';
    ctx.log(`warming up for ${ctx.warmup} s`);
    await wrkScript(ctx, { url, lua: lua('warm'), seconds: ctx.warmup });
    let run = 0;
    return { url, lua: () => lua(`run${Date.now()}-${++run}`), script };
  },

  measurements: [
    { key: 'api', name: 'API POST /reviews (201)', run: (ctx, s) => wrkScript(ctx, { url: s.url, lua: s.lua() }) },
    {
      key: 'pgbench',
      name: 'pgbench, same submit_review (pipelined)',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
  ],

  ratios: [{ name: 'API ÷ pgbench', of: 'api', over: 'pgbench', target: 0.5 }],
};

export const reviewListFirst = {
  name: 'reviews-list',
  description:
    'authenticated GET /organizations/:orgId/reviews, page 1 of 100,000 reviews (limit 20), next to pgbench running its SQL',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const url = `${ctx.stack.api.url}/api/v1/organizations/${seed.orgId}/reviews`;
    const headers = { Authorization: `Bearer ${seed.key}` };
    const { body } = await expectStatus(url, { headers }, 200);
    if (JSON.parse(body).data.length !== 20) throw new Error(`page 1 is not full: ${body.slice(0, 200)}`);
    // The statement the API sends (docs/design.md, a request's life): the list's first page without
    // a query string is one plaudit.api_review_first_page call, as org-get's read is.
    const script = keyedReadScript({
      keyHashHex: createHash('sha256').update(seed.key, 'utf8').digest('hex'),
      read: (hash, limit) => `plaudit.api_review_first_page(${hash}, '${seed.orgId}', ${limit})`,
    });
    // Both sides answer the same bytes.
    if ((await scriptBody(ctx.stack.authenticatorUrl, script)) !== body) throw new Error('pgbench reads another body');
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, headers, seconds: ctx.warmup });
    return { url, headers, script };
  },

  measurements: [
    { key: 'api', name: 'API list page 1', run: (ctx, s) => ctx.http({ url: s.url, headers: s.headers }) },
    {
      key: 'pgbench',
      name: 'pgbench, same SQL (-M prepared)',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
  ],

  ratios: [{ name: 'API ÷ pgbench', of: 'api', over: 'pgbench', target: 0.6 }],
};

export const reviewList = {
  name: 'reviews-list-depth',
  description:
    'authenticated GET /organizations/:orgId/reviews on 100,000 reviews at page 1 and page 1,000 (limit 20); the deep page must cost under 3× the first (req/s ratio ≥ 0.34)',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    // reviews-submit may have added thousands of reviews to this organization since the import.
    // The deep page walks the index only where the visibility map says the heap pages are
    // all-visible; fresh rows make it visit the heap too until (auto)vacuum has been by. Measure
    // the steady state, as after the import (docs/benchmarks.md gives the other figure).
    await ctx.stack.sql`vacuum (analyze) plaudit.reviews`;
    const base = `${ctx.stack.api.url}/api/v1/organizations/${seed.orgId}/reviews`;
    const headers = { Authorization: `Bearer ${seed.key}` };
    for (const page of [1, 1000]) {
      const { body } = await expectStatus(`${base}?page=${page}`, { headers }, 200);
      if (JSON.parse(body).data.length !== 20) throw new Error(`page ${page} is not full: ${body.slice(0, 200)}`);
    }
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url: `${base}?page=1`, headers, seconds: ctx.warmup });
    await ctx.http({ url: `${base}?page=1000`, headers, seconds: ctx.warmup });
    return { base, headers };
  },

  measurements: [
    {
      key: 'first',
      name: 'API list page 1',
      run: (ctx, s) => ctx.http({ url: `${s.base}?page=1`, headers: s.headers }),
    },
    {
      key: 'deep',
      name: 'API list page 1,000',
      run: (ctx, s) => ctx.http({ url: `${s.base}?page=1000`, headers: s.headers }),
    },
  ],

  ratios: [{ name: 'page 1,000 ÷ page 1', of: 'deep', over: 'first', target: 0.34 }],
};

/** A reference "measurement": what one client achieves when each statement takes 5 ms. */
const FIVE_MS_BUDGET = { tool: 'budget', rps: 200, p50: 5, p99: 5 };

export const metaTotal = {
  name: 'reviews-meta-total',
  description:
    'meta.total of an unfiltered list on an organization with 1,000,000 reviews: the counter statement (one client, in the tenant transaction) against a 5 ms budget, count(*) for comparison, and the API list',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-million', positive(ctx.env, 'BENCH_BIG_REVIEWS', 1_000_000));
    const url = `${ctx.stack.api.url}/api/v1/organizations/${seed.orgId}/reviews`;
    const headers = { Authorization: `Bearer ${seed.key}` };
    const { body } = await expectStatus(url, { headers }, 200);
    ctx.log(`meta.total = ${JSON.parse(body).meta.total}`);
    const tenant = (statement) =>
      [
        '\\startpipeline',
        'begin;',
        `select set_config('plaudit.org_id', '${seed.orgId}', true);`,
        'set local role plaudit_api;',
        statement,
        'commit;',
        '\\endpipeline',
      ].join('\n') + '\n';
    // Execution time of the counter statement alone, from EXPLAIN ANALYZE as the API role.
    const execMs = await ctx.stack.sql.begin(async (tx) => {
      await tx`select set_config('plaudit.org_id', ${seed.orgId}, true)`;
      await tx.unsafe('set local role plaudit_api');
      const times = [];
      for (let i = 0; i < 51; i++) {
        const plan = await tx.unsafe(
          'explain (analyze, format json) select coalesce(sum(total_count), 0)::integer from plaudit.review_statistics',
        );
        times.push(plan[0]['QUERY PLAN'][0]['Execution Time']);
      }
      return times.sort((x, y) => x - y)[25];
    });
    ctx.log(`counter statement execution (EXPLAIN ANALYZE, median of 51): ${execMs.toFixed(3)} ms`);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, headers, seconds: ctx.warmup });
    return {
      url,
      headers,
      counter: tenant('select coalesce(sum(total_count), 0)::integer as total from plaudit.review_statistics;'),
      counted: tenant('select count(*)::integer as total from plaudit.reviews;'),
    };
  },

  measurements: [
    {
      key: 'counter',
      name: 'meta.total: counter statement, 1 client',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.counter, clients: 1, threads: 1 }),
    },
    { key: 'budget', name: 'a 5 ms statement, 1 client (budget)', run: async () => FIVE_MS_BUDGET },
    {
      key: 'count',
      name: 'count(*) instead, 1 client',
      run: (ctx, s) =>
        ctx.pgbench({
          url: ctx.stack.authenticatorUrl,
          script: s.counted,
          clients: 1,
          threads: 1,
          seconds: Math.min(ctx.seconds, 5),
        }),
    },
    { key: 'api', name: 'API list page 1 (1M reviews)', run: (ctx, s) => ctx.http({ url: s.url, headers: s.headers }) },
  ],

  ratios: [
    { name: 'counter ÷ 5 ms budget', of: 'counter', over: 'budget', target: 1 },
    { name: 'counter ÷ count(*)', of: 'counter', over: 'count' },
  ],
};

export const profilePage = {
  name: 'profile',
  description:
    'GET /p/:slug (the public profile page of 100,000 reviews, page 1): uncached next to pgbench running its two statements, and revalidated with If-None-Match (304)',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const api = await publicApi(ctx);
    const url = `${api.url}/p/${seed.slug}`;
    const { res, body } = await expectStatus(url, {}, 200);
    if ((body.match(/<article class="review">/g) ?? []).length !== 10) throw new Error('unexpected profile page');
    const etag = res.headers.get('etag');
    await expectStatus(url, { headers: { 'if-none-match': etag } }, 304);
    // What the page runs, each statement as runAsPublic sends it (the two run side by side).
    const inPublicTx = (statement) =>
      ['\\startpipeline', 'begin;', 'set local role plaudit_public;', statement, 'commit;', '\\endpipeline'].join(
        '\n',
      ) + '\n';
    const script = inPublicTx(`select plaudit.public_profile(${sqlText(seed.slug)}) as p;`) +
      inPublicTx(`select plaudit.public_profile_reviews(${sqlText(seed.slug)}, null, 1, 10) as r;`);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, seconds: ctx.warmup });
    await ctx.http({ url, headers: { 'If-None-Match': etag }, seconds: ctx.warmup });
    return { url, etag, script };
  },

  measurements: [
    { key: 'uncached', name: 'profile page 1, uncached (200)', run: (ctx, s) => ctx.http({ url: s.url }) },
    {
      key: 'pgbench',
      name: 'pgbench, same two statements',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
    {
      key: 'revalidated',
      name: 'profile page, If-None-Match (304)',
      run: (ctx, s) => ctx.http({ url: s.url, headers: { 'If-None-Match': s.etag } }),
    },
  ],

  ratios: [
    { name: 'uncached ÷ pgbench', of: 'uncached', over: 'pgbench', target: 0.6 },
    { name: '304 ÷ uncached', of: 'revalidated', over: 'uncached', target: 2 },
  ],
};

export default [publicFeed, publicSubmit, reviewListFirst, reviewList, metaTotal, profilePage];
