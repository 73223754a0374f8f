// Public reads of products, on an organization with 100 products and 100,000 reviews of them
// (BENCH_PRODUCT_REVIEWS), most of them about a few best sellers as in a real shop:
//   product-reviews  GET /public/products/:slug/:externalId/reviews, page 1 of the best seller's
//                    reviews, uncached, next to pgbench running the route's one statement;
//   product-ratings  GET /public/products/:slug/ratings?ids=… for 100 products (a category page's
//                    stars) next to one product's summary, GET /public/products/:slug/:externalId.
import { expectStatus, publicApi } from './reviews.mjs';
import { positive } from '../stats.mjs';

const PRODUCTS = 100;
const ids = Array.from({ length: PRODUCTS }, (_, i) => `sku-${i}`);

/** The organization, its products (every fourth pair a group of variants) and their reviews. */
export async function seedProducts(ctx) {
  const { stack } = ctx;
  if (stack.productSeed) return stack.productSeed;
  const count = positive(ctx.env, 'BENCH_PRODUCT_REVIEWS', 100_000);
  const sql = stack.sql;
  const slug = 'bench-products';
  ctx.log(`seeding ${PRODUCTS} products and ${count.toLocaleString('en')} reviews of them`);
  const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Bench shop', ${slug}) returning id`;
  const [form] =
    await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench form') returning id`;
  await sql`
    insert into plaudit.products (org_id, external_id, name, url, sku, brand, group_key)
    select ${org.id}, 'sku-' || i, 'Stoneware mug ' || i, 'https://shop.example/mug-' || i, 'MUG-' || i,
           'Example Pottery', case when i % 4 = 1 then 'mug-' || (i - 1) when i % 4 = 0 then 'mug-' || i end
    from generate_series(0, ${PRODUCTS - 1}) i`;
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    // Half the reviews about sku-0, the rest spread over the catalog.
    await tx`
      insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name,
                                   reviewer_email, verification_status, created_at)
      select ${org.id}, ${form.id}, p.id, 1 + i % 5, 'Review ' || i,
             'A bench review, number ' || i || ', about a mug that keeps tea warm for ' || (i % 97) || ' minutes.',
             'Reviewer ' || i, 'reviewer' || i || '@example.com', 'unverified',
             timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => i * 60)
      from generate_series(1, ${count}::integer) i
      join plaudit.products p on p.org_id = ${org.id}
        and p.external_id = 'sku-' || case when i % 2 = 0 then 0 else i % ${PRODUCTS} end`;
  });
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  await sql`select plaudit.rebuild_product_review_statistics(${org.id})`;
  await sql`vacuum (analyze) plaudit.reviews`;
  stack.productSeed = { slug, orgId: org.id };
  return stack.productSeed;
}

export const productReviews = {
  name: 'product-reviews',
  description:
    "GET /public/products/:slug/:externalId/reviews (page 1 of a best seller's 50,000 reviews): uncached next to pgbench running its statement",
  async setup(ctx) {
    const seed = await seedProducts(ctx);
    const api = await publicApi(ctx);
    const url = `${api.url}/api/v1/public/products/${seed.slug}/sku-0/reviews`;
    const { body } = await expectStatus(url, {}, 200);
    const page = JSON.parse(body);
    if (page.data.length !== 20 || page.data[0].product?.external_id !== 'sku-0') {
      throw new Error(`unexpected product page: ${body.slice(0, 300)}`);
    }
    const script =
      `select version, body from plaudit.public_read_product_reviews('${seed.slug}', 'sku-0', 1, 20, 'newest', null, false);\n`;
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, seconds: ctx.warmup });
    return { url, script };
  },
  measurements: [
    {
      key: 'uncached',
      name: 'API product reviews page 1, uncached (200)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.url }),
    },
    {
      key: 'pgbench',
      name: 'pgbench, same statement (-M prepared)',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
  ],
  ratios: [{ name: 'uncached ÷ pgbench', of: 'uncached', over: 'pgbench', target: 0.75 }],
};

export const productRatings = {
  name: 'product-ratings',
  description:
    "GET /public/products/:slug/ratings?ids= for 100 products (a category page's stars) next to one product's summary",
  async setup(ctx) {
    const seed = await seedProducts(ctx);
    const api = await publicApi(ctx);
    const base = `${api.url}/api/v1/public/products/${seed.slug}`;
    const batch = `${base}/ratings?ids=${ids.join(',')}`;
    const one = `${base}/sku-0`;
    const { body } = await expectStatus(batch, {}, 200);
    if (JSON.parse(body).data.length !== PRODUCTS) throw new Error(`the batch misses products: ${body.slice(0, 300)}`);
    await expectStatus(one, {}, 200);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url: batch, seconds: ctx.warmup });
    await ctx.http({ url: one, seconds: ctx.warmup });
    return { batch, one };
  },
  measurements: [
    {
      key: 'batch',
      name: 'API ratings of 100 products',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.batch }),
    },
    {
      key: 'one',
      name: "API one product's summary",
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.one }),
    },
  ],
  ratios: [{ name: 'batch of 100 ÷ one summary', of: 'batch', over: 'one', target: 0.5 }],
};

export default [productReviews, productRatings];
