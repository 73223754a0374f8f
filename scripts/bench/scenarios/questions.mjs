// questions-public-page: a product's public questions, page 1 (ten questions with their answers) of
// a product with BENCH_QUESTIONS (1,000) published questions, each answered by the business, over
// HTTP and uncached, next to pgbench running the statement the route sends
// (plaudit.public_question_page as plaudit_public). docs/questions.md.
import { positive } from '../stats.mjs';
import { expectStatus, publicApi } from './reviews.mjs';

const SLUG = 'bench-questions';
const PRODUCT = 'MUG-Q';

async function seed(sql, count, log) {
  log(`seeding ${count.toLocaleString('en')} answered questions of one product`);
  const [org] =
    await sql`insert into plaudit.organizations (name, slug) values ('Questions bench', ${SLUG}) returning id`;
  const [product] = await sql`
    insert into plaudit.products (org_id, external_id, name) values (${org.id}, ${PRODUCT}, 'Bench mug') returning id`;
  await sql`
    insert into plaudit.questions (org_id, product_id, question, asker_name, asker_email, status,
                                   confirmation_token_hash, confirmed_at, last_answered_at, created_at)
    select ${org.id}, ${product.id}, 'Is mug number ' || g || ' safe in a dishwasher and in a microwave oven?',
           'Asker ' || g, 'asker' || g || '@example.com', 'published', sha256(convert_to('bench-q' || g, 'UTF8')),
           now(), now() - g * interval '1 minute', now() - g * interval '2 minutes'
      from generate_series(1, ${count}) g`;
  await sql`
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content)
    select ${org.id}, q.id, 'business', 'Questions bench', 'Yes: both, at up to 70 °C. ' || q.asker_name
      from plaudit.questions q where q.org_id = ${org.id}`;
  await sql`analyze plaudit.questions`;
  await sql`analyze plaudit.question_answers`;
}

export default {
  name: 'questions-public-page',
  description:
    "a product's public questions, page 1 of 1,000 answered ones, uncached, next to pgbench running the route's statement",

  async setup(ctx) {
    await seed(ctx.stack.sql, positive(ctx.env, 'BENCH_QUESTIONS', 1_000), ctx.log);
    const api = await publicApi(ctx);
    const url = `${api.url}/api/v1/public/products/${SLUG}/${PRODUCT}/questions?page=1&limit=10`;
    const { body } = await expectStatus(url, {}, 200);
    const page = JSON.parse(body);
    if (page.data.length !== 10 || page.data[0].answers.length !== 1) {
      throw new Error(`unexpected questions page: ${body.slice(0, 300)}`);
    }
    const script = [
      '\\startpipeline',
      'begin;',
      'set local role plaudit_public;',
      `select version, body from plaudit.public_question_page('${SLUG}', '${PRODUCT}', 1, 10);`,
      'commit;',
      '\\endpipeline',
    ].join('\n') + '\n';
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, seconds: ctx.warmup });
    return { url, script };
  },

  measurements: [
    {
      key: 'uncached',
      name: 'API product questions page 1, uncached (200)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.url }),
    },
    {
      key: 'pgbench',
      name: 'pgbench, same statement as plaudit_public (pipelined)',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.script }),
    },
  ],

  ratios: [{ name: 'uncached ÷ pgbench', of: 'uncached', over: 'pgbench', target: 0.75 }],
};
