// product-sync: a shop's catalog of 10,000 products (BENCH_SYNC_PRODUCTS) synced through
// `PUT …/products` in calls of 1,000, three times: new (all created), the same catalog again (all
// unchanged: the nightly sync of a shop whose catalog did not move) and every product renamed (all
// updated). Beside it, the reference: COPY of the same rows into a table of the same shape, through
// psql on the same database, which is as fast as PostgreSQL takes rows in.
import { copyIntoTable } from '../copy.mjs';

const PER_CALL = 1000;

function positive(env, name, fallback) {
  const n = Number(env[name] ?? fallback);
  if (!Number.isInteger(n) || n < PER_CALL || n % PER_CALL !== 0) {
    throw new Error(`${name} must be a multiple of ${PER_CALL}`);
  }
  return n;
}

function catalog(total, suffix) {
  return Array.from({ length: total }, (_, i) => ({
    external_id: `sku-${i}`,
    name: `Stoneware mug ${i}${suffix}`,
    url: `https://shop.example/products/mug-${i}`,
    image_url: `https://cdn.shop.example/mug-${i}.jpg`,
    sku: `MUG-${i}`,
    brand: 'Example Pottery',
    group: `mug-${Math.floor(i / 4)}`,
  }));
}

async function syncAll(url, key, products) {
  const started = performance.now();
  const counts = { created: 0, updated: 0, unchanged: 0, rejected: 0 };
  for (let at = 0; at < products.length; at += PER_CALL) {
    const res = await fetch(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ products: products.slice(at, at + PER_CALL) }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`PUT products answered ${res.status}: ${JSON.stringify(body)}`);
    for (const k of ['created', 'updated', 'unchanged']) counts[k] += body[k];
    counts.rejected += body.rejected.length;
  }
  return { seconds: (performance.now() - started) / 1000, counts };
}

/** The same rows as CSV, COPY'd into a scratch table of the products' shape. */
function copyCatalog(url, products) {
  const csv = products
    .map((p) => [p.external_id, p.name, p.url, p.image_url, p.sku, p.brand, p.group].join(','))
    .join('\n') + '\n';
  const table = `create temp table bench_products (external_id text, name text, url text, image_url text, sku text,
                                                   brand text, group_key text)`;
  return copyIntoTable(url, table, csv).then((seconds) => ({ seconds }));
}

function expect(step, counts, field, total) {
  if (counts[field] !== total || counts.rejected !== 0) {
    throw new Error(`${step}: expected ${total} ${field}, got ${JSON.stringify(counts)}`);
  }
}

const scenario = {
  name: 'product-sync',
  description:
    'bulk upsert of 10,000 products in calls of 1,000 (new, the same again, all renamed) next to COPY of the same rows',
  async run(ctx) {
    const { stack } = ctx;
    const total = positive(ctx.env, 'BENCH_SYNC_PRODUCTS', 10_000);
    const [org] = await stack
      .sql`insert into plaudit.organizations (name, slug) values ('Sync bench', 'sync-bench') returning id`;
    const [key] = await stack.sql`select key from plaudit.issue_api_key(${org.id}, 'bench write key', 'write')`;
    const url = `${stack.api.url}/api/v1/organizations/${org.id}/products`;

    ctx.log(`${total} new products in ${total / PER_CALL} calls`);
    const created = await syncAll(url, key.key, catalog(total, ''));
    expect('first sync', created.counts, 'created', total);
    ctx.log('the same catalog again');
    const unchanged = await syncAll(url, key.key, catalog(total, ''));
    expect('second sync', unchanged.counts, 'unchanged', total);
    ctx.log('every product renamed');
    const updated = await syncAll(url, key.key, catalog(total, ' (new glaze)'));
    expect('third sync', updated.counts, 'updated', total);
    ctx.log('reference: COPY of the same rows');
    const copy = await copyCatalog(stack.superuserUrl, catalog(total, ''));

    const rate = (r) => total / r.seconds;
    return {
      rows: [
        { name: `PUT …/products: ${total} new (rows/s; ${created.seconds.toFixed(2)} s)`, rps: rate(created) },
        {
          name: `PUT …/products: ${total} unchanged (rows/s; ${unchanged.seconds.toFixed(2)} s)`,
          rps: rate(unchanged),
        },
        { name: `PUT …/products: ${total} updated (rows/s; ${updated.seconds.toFixed(2)} s)`, rps: rate(updated) },
        { name: `COPY of the same ${total} rows (rows/s)`, rps: rate(copy) },
      ],
      ratios: [
        { name: 'new products ÷ COPY', value: rate(created) / rate(copy) },
        { name: 'unchanged ÷ new (the nightly sync of a quiet catalog)', value: rate(unchanged) / rate(created) },
      ],
    };
  },
};

export default scenario;
