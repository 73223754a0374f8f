// shopper-signals: a visitor's helpful vote (POST /public/reviews/:slug/:reviewId/helpful, each
// request a new visitor on one of 1,000 reviews) next to a public submission (POST /reviews, each a
// new review from a new address), both on the API whose per-address limits never answer 429.
// Target: votes ÷ submissions ≥ 2 (req/s).
import { positive } from '../stats.mjs';
import { expectStatus, publicApi, seedOrganization, submitLua, wrkScript } from './reviews.mjs';

/** wrk's Lua: each request a new visitor (address) voting on the next of the reviews given. */
const voteLua = (base, ids, prefix) => `
local ids = { ${ids.map((id) => `"${id}"`).join(', ')} }
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
request = function()
  n = n + 1
  local id = ids[(n % #ids) + 1]
  local ip = string.format("10.%d.%d.%d", tid, math.floor(n / 256) % 256, n % 256)
  return wrk.format("POST", "${base}/" .. id .. "/helpful", { ["X-Forwarded-For"] = ip, ["User-Agent"] = "${prefix}" .. n }, nil)
end
`;

export const shopperSignals = {
  name: 'shopper-signals',
  description: 'a helpful vote (a new visitor each) next to a public submission (a new review each), req/s',
  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const api = await publicApi(ctx);
    const ids = (await ctx.stack.sql`
      select id from plaudit.reviews where org_id = ${seed.orgId} order by created_at desc limit 1000`).map((r) =>
      r.id
    );
    const base = `${api.url}/api/v1/public/reviews/${seed.slug}`;
    await expectStatus(
      `${base}/${ids[0]}/helpful`,
      { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.9' } },
      200,
    );
    let run = 0;
    const votes = () => voteLua(base, ids, `vote${Date.now()}-${++run}-`);
    const submissions = () => submitLua(seed.formId, `sig${Date.now()}-${++run}`);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await wrkScript(ctx, { url: base, lua: votes(), seconds: ctx.warmup });
    return { base, submitUrl: `${api.url}/api/v1/reviews`, votes, submissions };
  },
  measurements: [
    {
      key: 'vote',
      name: 'API helpful vote (200)',
      run: (ctx, s) => wrkScript(ctx, { url: s.base, lua: s.votes() }),
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
    },
    {
      key: 'submit',
      name: 'API POST /reviews (201)',
      run: (ctx, s) => wrkScript(ctx, { url: s.submitUrl, lua: s.submissions() }),
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
    },
  ],
  ratios: [{ name: 'vote ÷ submission', of: 'vote', over: 'submit', target: 2 }],
};

export default [shopperSignals];
