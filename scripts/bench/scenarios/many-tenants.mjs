// Many tenants (docs/scaling.md): does a small organization pay for the others? Two databases of
// the bench's cluster, each with its own API instance (alike but for the database):
//   crowded  BENCH_TENANTS organizations (10,000): most small, BENCH_TENANT_REVIEWS reviews each
//            (5), one with BENCH_TENANT_BIG_REVIEWS (1,000,000), and BENCH_TENANT_ENDPOINTS webhook
//            endpoints (20,000), all idle but 10;
//   alone    the small organization measured, and the 10 endpoints with deliveries due.
// Side by side: the small organization's public feed, its keyed list (page 1) and a public
// submission; and the worker's delivery claim (one client, in a transaction rolled back, so that
// each call claims the same 40 deliveries: 10 endpoints × 4 in flight) with 20,000 endpoints ÷ 10.
// The measured organization and the endpoints' organization are made by the same statements in
// both databases; the crowd is seeded set-based, triggers off, as an import would be.
import { applyMigrations, connect, ensureDatabase } from '../../lib/database.mjs';
import { expectStatus, seedOrganization, submitLua, UNLIMITED_PUBLIC, wrkScript } from './reviews.mjs';
import { positive } from '../stats.mjs';

const BUSY_ENDPOINTS = 10;
const DUE_PER_ENDPOINT = 8;
const CLAIMED = BUSY_ENDPOINTS * 4;

/** The organization measured: its form, a read key and `reviews` reviews, written as the API writes them. */
async function seedSmall(sql, reviews) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug) values ('Small shop', 'small-shop') returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench', 'read')`;
  await sql`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, created_at)
    select ${org.id}, ${form.id}, 1 + i % 5, 'Review ' || i, 'A small shop''s review, number ' || i || '.',
           'Reviewer ' || i, 'small' || i || '@example.com', 'unverified',
           timestamptz '2026-01-01 00:00:00+00' + make_interval(days => i)
    from generate_series(1, ${reviews}::integer) i`;
  return { orgId: org.id, formId: form.id, slug: 'small-shop', key: key.key };
}

/** The organization whose 10 endpoints have deliveries due, 8 each. */
async function seedBusyEndpoints(sql) {
  await sql`
    with org as (insert into plaudit.organizations (name, slug) values ('Hooks', 'hooks') returning id),
    endpoints as (
      insert into plaudit.webhook_endpoints (org_id, url, events, secret)
      select org.id, 'https://hooks.example/busy/' || e, array['*'], plaudit.new_webhook_secret()
      from org, generate_series(1, ${BUSY_ENDPOINTS}::integer) e
      returning id, org_id
    )
    insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_type, payload, next_attempt_at)
    select e.org_id, e.id, 'review.created', '{"event":"review.created","data":{"n":' || n || '}}',
           now() - make_interval(secs => n)
    from endpoints e, generate_series(1, ${DUE_PER_ENDPOINT}::integer) n`;
}

/** The crowd: small organizations with a few reviews and two idle endpoints each, one large one. */
async function seedCrowd(ctx, { tenants, reviews, big, endpoints }) {
  const sql = ctx.stack.sql;
  const small = tenants - 3; // besides the one measured, the large one and the endpoints' one
  ctx.log(`seeding ${small.toLocaleString('en')} small organizations, ${reviews} reviews each`);
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into plaudit.organizations (name, slug)
      select 'Tenant ' || i, 'tenant-' || i from generate_series(1, ${small}::integer) i`;
    await tx`
      insert into plaudit.review_forms (org_id, name)
      select id, 'Form' from plaudit.organizations where slug like 'tenant-%'`;
    await tx`
      insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                   verification_status, created_at)
      select f.org_id, f.id, 1 + i % 5, 'Review ' || i, 'A review of tenant ' || o.slug || ', number ' || i || '.',
             'Reviewer ' || i, o.slug || '-' || i || '@example.com', 'unverified',
             timestamptz '2026-01-01 00:00:00+00' + make_interval(days => i)
      from plaudit.review_forms f join plaudit.organizations o on o.id = f.org_id
      cross join generate_series(1, ${reviews}::integer) i
      where o.slug like 'tenant-%'`;
  });
  await sql`select plaudit.rebuild_review_statistics(id) from plaudit.organizations where slug like 'tenant-%'`;
  const idle = endpoints - BUSY_ENDPOINTS;
  ctx.log(`seeding ${idle.toLocaleString('en')} idle webhook endpoints`);
  await sql`
    insert into plaudit.webhook_endpoints (org_id, url, events, secret)
    select o.id, 'https://hooks.example/' || o.slug || '/' || e, array['*'], plaudit.new_webhook_secret()
    from plaudit.organizations o cross join generate_series(1, ${Math.ceil(idle / small)}::integer) e
    where o.slug like 'tenant-%'
    order by e, o.slug
    limit ${idle}`;
  await seedOrganization(ctx, 'big-shop', big); // set-based, triggers off; vacuums and analyzes
}

/** The second database, migrated, reached by the same roles as the stack's. */
async function aloneDatabase(ctx) {
  const { stack } = ctx;
  await ensureDatabase(stack.cluster.url('postgres'), 'plaudit_alone');
  const at = (raw) => {
    const url = new URL(raw);
    url.pathname = '/plaudit_alone';
    return url.toString();
  };
  const superuserUrl = at(stack.superuserUrl);
  ctx.log('applying migrations to the second database');
  await applyMigrations(superuserUrl);
  const sql = connect(superuserUrl);
  const stop = stack.stop;
  stack.stop = async () => {
    await sql.end({ timeout: 5 }).catch(() => {});
    await stop();
  };
  return { sql, superuserUrl, authenticatorUrl: at(stack.authenticatorUrl) };
}

const CLAIM_SCRIPT = [
  'begin;',
  'set local role plaudit_worker;',
  'select count(*) from plaudit.claim_webhook_deliveries(50, 60, 4, null);',
  'rollback;',
].join('\n') + '\n';

/** How many deliveries the claim takes, in a transaction rolled back. */
async function claimedOnce(superuserUrl) {
  const sql = connect(superuserUrl);
  const rolledBack = new Error('rolled back');
  let claimed;
  try {
    await sql.begin(async (tx) => {
      [{ claimed }] = await tx`
        select count(*)::integer as claimed from plaudit.claim_webhook_deliveries(50, 60, 4, null)`;
      throw rolledBack;
    });
  } catch (err) {
    if (err !== rolledBack) throw err;
  } finally {
    await sql.end();
  }
  return claimed;
}

/** The URLs, headers and checks of one side (one database, its API). */
async function side(ctx, name, api, small, superuserUrl, reviews) {
  const feed = `${api.url}/api/v1/public/profiles/${small.slug}/reviews`;
  const list = `${api.url}/api/v1/organizations/${small.orgId}/reviews`;
  const headers = { Authorization: `Bearer ${small.key}` };
  const { body: feedBody } = await expectStatus(feed, {}, 200);
  const { body: listBody } = await expectStatus(list, { headers }, 200);
  const { data } = JSON.parse(feedBody);
  if (data.length !== reviews || JSON.parse(listBody).data.length !== reviews) {
    throw new Error(`${name}: the feed or the list does not show the ${reviews} reviews`);
  }
  const claimed = await claimedOnce(superuserUrl);
  if (claimed !== CLAIMED) throw new Error(`${name}: the claim took ${claimed} deliveries, not ${CLAIMED}`);
  ctx.log(`warming up ${name} for ${ctx.warmup} s`);
  await ctx.http({ url: feed, seconds: ctx.warmup });
  await ctx.http({ url: list, headers, seconds: ctx.warmup });
  return {
    feed,
    list,
    headers,
    submit: `${api.url}/api/v1/reviews`,
    formId: small.formId,
    superuserUrl,
    pid: api.child.pid,
  };
}

let submitRun = 0;
// Each figure is measured on both sides one after the other, so the pair shares the machine's load.
const MEASURED = [
  {
    key: 'feed',
    name: 'public feed of a small organization',
    run: (ctx, side) => ctx.http({ url: side.feed }),
  },
  {
    key: 'list',
    name: 'keyed list page 1 of it',
    run: (ctx, side) => ctx.http({ url: side.list, headers: side.headers }),
  },
  {
    key: 'claim',
    name: `delivery claim (${CLAIMED} of ${BUSY_ENDPOINTS} endpoints), 1 client`,
    api: false,
    run: (ctx, side) => ctx.pgbench({ url: side.superuserUrl, script: CLAIM_SCRIPT, clients: 1, threads: 1 }),
  },
  {
    key: 'submit',
    name: 'POST /reviews to it',
    run: (ctx, side, key) => wrkScript(ctx, { url: side.submit, lua: submitLua(side.formId, `${key}${++submitRun}`) }),
  },
];
const SIDES = [['crowded', (s) => `among ${s.tenants.toLocaleString('en')} tenants`], ['alone', () => 'alone']];
const measurements = MEASURED.flatMap((m) =>
  SIDES.map(([side, label]) => ({
    key: `${m.key}-${side}`,
    name: (s) => `${m.name}, ${label(s)}`,
    ...(m.api === false ? {} : { apiPid: (_ctx, s) => s[side].pid }),
    run: (ctx, s) => m.run(ctx, s[side], side),
  }))
);

export default {
  name: 'many-tenants',
  description:
    'a small organization among 10,000 (one with 1,000,000 reviews) and 20,000 webhook endpoints, next to the same organization alone in a database',
  async setup(ctx) {
    const { stack, env } = ctx;
    const settings = {
      tenants: positive(env, 'BENCH_TENANTS', 10_000),
      reviews: positive(env, 'BENCH_TENANT_REVIEWS', 5),
      big: positive(env, 'BENCH_TENANT_BIG_REVIEWS', 1_000_000),
      endpoints: positive(env, 'BENCH_TENANT_ENDPOINTS', 20_000),
    };
    if (settings.tenants < 4 || settings.endpoints <= BUSY_ENDPOINTS) {
      throw new Error(`BENCH_TENANTS must be at least 4 and BENCH_TENANT_ENDPOINTS more than ${BUSY_ENDPOINTS}`);
    }
    const started = Date.now();
    const alone = await aloneDatabase(ctx);
    const smallCrowded = await seedSmall(stack.sql, settings.reviews);
    const smallAlone = await seedSmall(alone.sql, settings.reviews);
    await seedBusyEndpoints(stack.sql);
    await seedBusyEndpoints(alone.sql);
    await seedCrowd(ctx, settings);
    for (const sql of [stack.sql, alone.sql]) await sql`vacuum (analyze)`;
    ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const [{ orgs, endpoints }] = await stack.sql`
      select (select count(*)::integer from plaudit.organizations) as orgs,
             (select count(*)::integer from plaudit.webhook_endpoints) as endpoints`;
    ctx.log(`crowded: ${orgs} organizations, ${endpoints} webhook endpoints`);

    const crowdedApi = await stack.startExtraApi({ env: UNLIMITED_PUBLIC });
    const aloneApi = await stack.startExtraApi({ databaseUrl: alone.authenticatorUrl, env: UNLIMITED_PUBLIC });
    const state = {
      tenants: settings.tenants,
      crowded: await side(ctx, 'crowded', crowdedApi, smallCrowded, stack.superuserUrl, settings.reviews),
      alone: await side(ctx, 'alone', aloneApi, smallAlone, alone.superuserUrl, settings.reviews),
    };
    return state;
  },
  measurements,
  ratios: [
    { name: 'public feed: crowded ÷ alone (req/s)', of: 'feed-crowded', over: 'feed-alone', target: 0.8 },
    { name: 'keyed list: crowded ÷ alone (req/s)', of: 'list-crowded', over: 'list-alone', target: 0.8 },
    {
      name: 'submission: crowded ÷ alone (req/s)',
      of: 'submit-crowded',
      over: 'submit-alone',
      target: 0.8,
    },
    {
      name: 'delivery claim: all endpoints ÷ the 10 busy alone (calls/s)',
      of: 'claim-crowded',
      over: 'claim-alone',
      target: 0.7,
    },
  ],
};
