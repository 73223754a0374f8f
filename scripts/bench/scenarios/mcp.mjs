// mcp: the MCP server's search_reviews (POST /api/v1/mcp, tools/call, 10 newest reviews of the
// bench shop's best seller, 50,000 of them) next to the public reviews route it stands beside,
// GET /public/products/:slug/:externalId/reviews?limit=10 (a query string: the router's path, not
// the fast path's first page), on the same public API. Each MCP request is stateless: a new server
// and transport answer it, which is what this measures against the route.
import { expectStatus, publicApi, wrkScript } from './reviews.mjs';
import { seedProducts } from './products.mjs';

const callLua = (slug) => `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"business":"${slug}","product":"sku-0","limit":10}}}'
`;

const scenario = {
  name: 'mcp',
  description:
    "MCP search_reviews (10 of a best seller's reviews) next to the public reviews route answering the same 10",
  async setup(ctx) {
    const seed = await seedProducts(ctx);
    const api = await publicApi(ctx);
    const mcp = `${api.url}/api/v1/mcp`;
    const route = `${api.url}/api/v1/public/products/${seed.slug}/sku-0/reviews?limit=10`;
    const lua = callLua(seed.slug);
    const { body } = await expectStatus(mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: lua.match(/wrk.body = '(.*)'/)[1],
    }, 200);
    const answer = JSON.parse(body);
    if (answer.result?.structuredContent?.reviews?.length !== 10) {
      throw new Error(`unexpected MCP answer: ${body.slice(0, 300)}`);
    }
    await expectStatus(route, {}, 200);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await wrkScript(ctx, { url: mcp, lua, seconds: ctx.warmup });
    await ctx.http({ url: route, seconds: ctx.warmup });
    return { mcp, route, lua };
  },
  measurements: [
    {
      key: 'mcp',
      name: 'MCP tools/call search_reviews, 10 reviews',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => wrkScript(ctx, { url: s.mcp, lua: s.lua }),
    },
    {
      key: 'route',
      name: 'GET /public/products/:slug/:externalId/reviews?limit=10',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.route }),
    },
  ],
  ratios: [{ name: 'MCP search_reviews ÷ the public reviews route', of: 'mcp', over: 'route', target: 0.7 }],
};

export default scenario;
