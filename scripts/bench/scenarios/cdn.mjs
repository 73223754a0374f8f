// The CDN stage (docs/scaling.md) with the shipped Varnish (deploy/varnish/plaudit.vcl) in front of
// an API of the scenario's own, and the worker purging it:
//   - the widget's feed served by Varnish as hits, next to the same feed from the API uncached;
//   - a moderation committed → the purge landed (the feed through Varnish shows the change),
//     p50 / p99 over BENCH_CDN_PURGES hides and shows.
//
//   BENCH_CDN_PURGES=40   moderations timed
import { startApi } from '../../lib/api-server.mjs';
import { freePort } from '../../lib/postgres.mjs';
import { startVarnish } from '../../lib/varnish.mjs';
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { percentile, positive } from '../stats.mjs';

export default {
  name: 'cdn',
  description:
    "The widget's feed through Varnish (hits) ÷ the API uncached (req/s); moderation commit → purge landed in Varnish, p50 / p99",
  async run(ctx) {
    const { stack } = ctx;
    const purges = positive(ctx.env, 'BENCH_CDN_PURGES', 40);
    const stops = [];
    try {
      // Public routes limit each address; every request here comes from 127.0.0.1.
      const api = await startApi({
        port: await freePort(),
        databaseUrl: stack.authenticatorUrl,
        env: { ...stack.apiEnv, PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000' },
        stdio: 'ignore',
      });
      stops.push(() => api.stop());
      const varnish = await startVarnish({
        backendPort: Number(new URL(api.url).port),
        dir: stack.dir,
        memory: '128m',
      });
      stops.push(() => varnish.stop());

      const sql = stack.sql;
      const slug = `bench-cdn-${Date.now()}`;
      const [org] =
        await sql`insert into plaudit.organizations (name, slug) values ('Fjord Coffee', ${slug}) returning id`;
      const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
      const ids = [];
      for (let i = 0; i < 10; i++) {
        const review = {
          form_id: form.id,
          rating: 5 - (i % 3),
          title: 'Review ' + i,
          content: 'A good cup of coffee, number ' + i + '. Fast delivery.',
          reviewer_name: 'Reviewer ' + i,
          reviewer_email: `r${i}@example.com`,
        };
        const [r] = await sql`select * from plaudit.submit_review(
          jsonb_populate_record(null::plaudit.review_submission, ${sql.json(review)}),
          ${'bench-cdn-' + i}, 1000, 'http://127.0.0.1')`;
        ids.push(r.id);
      }
      const worker = await startWorkerProcess({
        databaseUrl: stack.authenticatorUrl,
        env: { CDN_PURGE_URL: `${varnish.url}/`, WORKER_ORG_IDS: org.id, PLAUDIT_ENV: 'production' },
        stdio: 'ignore',
      });
      stops.push(() => worker.stop());

      const feed = `/api/v1/public/reviews/${slug}`;
      await (await fetch(`${varnish.url}${feed}`)).text();
      ctx.log('feed through Varnish (hits)');
      const hits = await ctx.http({ url: `${varnish.url}${feed}` });
      ctx.log('feed from the API, uncached');
      const uncached = await ctx.http({ url: `${api.url}${feed}` });

      // Commit a hide (or a show) as the moderation route does, then read the feed through
      // Varnish until it shows the change: the purge has landed and the refill is fresh.
      ctx.log(`${purges} moderations → purge landed`);
      const times = [];
      const target = ids[0];
      for (let i = 0; i < purges; i++) {
        const hidden = i % 2 === 0;
        const before = await (await fetch(`${varnish.url}${feed}`)).text();
        const started = performance.now();
        await sql.begin(async (tx) => {
          await tx`select set_config('plaudit.moderation_reason', 'bench', true)`;
          await tx`update plaudit.reviews set is_hidden = ${hidden} where id = ${target}`;
        });
        const deadline = Date.now() + 30_000;
        for (;;) {
          const text = await (await fetch(`${varnish.url}${feed}`)).text();
          if (text !== before && text.includes(target) !== hidden) break;
          if (Date.now() > deadline) throw new Error('a purge did not land within 30 s');
          await new Promise((r) => setTimeout(r, 2));
        }
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p99 = percentile(times, 99);
      return {
        rows: [
          { name: 'GET the feed through Varnish, hits (req/s)', rps: hits.rps, p50: hits.p50, p99: hits.p99 },
          {
            name: 'GET the feed from the API, uncached (req/s)',
            rps: uncached.rps,
            p50: uncached.p50,
            p99: uncached.p99,
          },
          { name: 'moderation commit → purge landed (ms)', rps: NaN, p50, p99 },
        ],
        ratios: [
          { name: 'Varnish hits ÷ API uncached (req/s), target ≥ 10', value: hits.rps / uncached.rps },
          { name: 'purge landed p50 (s), target ≤ 1', value: p50 / 1000 },
          { name: 'purge landed p99 (s), target ≤ 3', value: p99 / 1000 },
        ],
      };
    } finally {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    }
  },
};
