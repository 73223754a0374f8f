// Attribute ratings' cost on a product's public page: GET /p/:slug/products/:externalId (page 1 of
// the product's reviews, each carrying its `attributes`, under the summary with its answers'
// bars), uncached, for a shop whose form has a scale and a rating field that most reviews
// answered, next to the same page of a shop of the same reviews without them
// (BENCH_ATTRIBUTE_REVIEWS each, half of them about the product shown).
import { expectStatus, publicApi } from './reviews.mjs';
import { positive } from '../stats.mjs';

const FIELDS = [
  { key: 'fit', label: 'How does it fit?', type: 'scale', required: false, scale: ['Small', 'True', 'Large'] },
  { key: 'quality', label: 'Quality', type: 'rating', required: false },
];

/** A shop of 20 products and `count` reviews, answering the form's fields when `withAttributes`. */
async function seedShop(ctx, slug, count, withAttributes) {
  const sql = ctx.stack.sql;
  const [org] = await sql`insert into plaudit.organizations (name, slug) values (${slug}, ${slug}) returning id`;
  const [form] = await sql`
    insert into plaudit.review_forms (org_id, name, custom_fields)
    values (${org.id}, 'Form', ${sql.json(withAttributes ? FIELDS : [])}) returning id`;
  await sql`
    insert into plaudit.products (org_id, external_id, name)
    select ${org.id}, 'sku-' || i, 'Boot ' || i from generate_series(0, 19) i`;
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name,
                                   reviewer_email, verification_status, created_at, custom_fields, attributes)
      select ${org.id}, ${form.id}, p.id, 1 + i % 5, 'Review ' || i,
             'A bench review, number ' || i || ', about a boot worn for ' || (i % 97) || ' days.',
             'Reviewer ' || i, 'reviewer' || i || '@example.com', 'unverified',
             timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => i * 60), a, a
      from generate_series(1, ${count}::integer) i
      cross join lateral (select case when ${withAttributes}::boolean and i % 10 <> 0
        then jsonb_build_object('fit', (array['Small', 'True', 'Large'])[1 + i % 3], 'quality', 1 + i % 5)
        else '{}'::jsonb end as a) x
      join plaudit.products p on p.org_id = ${org.id}
        and p.external_id = 'sku-' || case when i % 2 = 0 then 0 else i % 20 end`;
  });
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  await sql`select plaudit.rebuild_product_review_statistics(${org.id})`;
  await sql`select plaudit.rebuild_attribute_statistics(${org.id})`;
  return slug;
}

export const attributePage = {
  name: 'attributes',
  description:
    'GET /p/:slug/products/:externalId (page 1 with attributes and their summary), uncached, next to the same page of a shop without them',
  async setup(ctx) {
    const count = positive(ctx.env, 'BENCH_ATTRIBUTE_REVIEWS', 20_000);
    ctx.log(`seeding two shops of ${count.toLocaleString('en')} reviews, one answering a scale and a rating`);
    const withSlug = await seedShop(ctx, 'bench-attributes', count, true);
    const withoutSlug = await seedShop(ctx, 'bench-no-attributes', count, false);
    await ctx.stack.sql`vacuum (analyze) plaudit.reviews`;
    const api = await publicApi(ctx);
    const withUrl = `${api.url}/p/${withSlug}/products/sku-0`;
    const withoutUrl = `${api.url}/p/${withoutSlug}/products/sku-0`;
    const { body } = await expectStatus(withUrl, {}, 200);
    if (!body.includes('How does it fit?')) throw new Error('the page shows no attribute summary');
    await expectStatus(withoutUrl, {}, 200);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url: withUrl, seconds: ctx.warmup });
    await ctx.http({ url: withoutUrl, seconds: ctx.warmup });
    return { withUrl, withoutUrl };
  },
  measurements: [
    {
      key: 'with',
      name: 'product page 1 with attributes and summary, uncached',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.withUrl }),
    },
    {
      key: 'without',
      name: 'product page 1 without them, uncached',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.withoutUrl }),
    },
  ],
  ratios: [{ name: 'with attributes ÷ without', of: 'with', over: 'without', target: 0.85 }],
};

export default [attributePage];
