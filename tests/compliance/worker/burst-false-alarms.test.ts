// False alarms of the burst detection on a realistic history, generated with a seeded random
// source: 90 days of steady reviews of a business, a lamp and a group of mugs (mostly praise, a
// few low ratings, each from an address of its own, daytime heavier than night); a launch day of
// the lamp (a hundred reviews an hour, some low); a sale with its review request batch (six hundred
// invited reviews in three hours); a viral post about the mugs (praise by the hundred); one
// unhappy customer sending thirty one-star reviews from one address; and, on the last day, a real
// bombing of the mugs. The worker's detection runs every half hour of the 90 days with the clock
// given (no sleeps): it opens exactly one hold, on the mugs, in the bombing's hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';

let t: Tenant;
let formId: string;
const START = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAYS = 90;

/** mulberry32: the same history every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(2026);

interface Arrival {
  at: number;
  rating: number;
  product: string | null;
  client: string;
  source: 'form' | 'invitation';
}
const history: Arrival[] = [];
let clients = 0;
const newClient = () => `client-${clients++}`;

/** A rating drawn from a shop's usual spread: mostly praise, a few low ones. */
function usualRating(lowShare = 0.1): number {
  const r = random();
  if (r < lowShare / 2) return 1;
  if (r < lowShare) return 2;
  if (r < lowShare + 0.08) return 3;
  if (r < lowShare + 0.3) return 4;
  return 5;
}

function add(
  count: number,
  from: number,
  spanMs: number,
  product: string | null,
  rating: () => number,
  client = newClient,
  source: Arrival['source'] = 'form',
) {
  for (let i = 0; i < count; i++) {
    history.push({ at: from + Math.floor(random() * spanMs), rating: rating(), product, client: client(), source });
  }
}

function generate(products: Record<string, string>) {
  // Steady flow: per hour, by time of day, a Poisson-ish count for each subject.
  for (let h = 0; h < DAYS * 24; h++) {
    const hourOfDay = h % 24;
    const busy = hourOfDay >= 8 && hourOfDay < 22 ? 1 : 0.2;
    for (
      const [subject, rate] of [[null, 3], [products.lamp, 1], [products.mugRed, 0.7], [products.mugBlue, 0.7]] as const
    ) {
      const n = Math.floor(rate * busy * 2 * random() + random());
      add(n, START + h * HOUR, HOUR, subject, () => usualRating());
    }
  }
  // Launch day of the lamp (day 30, 10:00 to 14:00): a hundred reviews an hour, 12 % low.
  add(400, START + (30 * 24 + 10) * HOUR, 4 * HOUR, products.lamp, () => usualRating(0.12));
  // A sale with its review request batch (day 50, 18:00 to 21:00): invited reviews of the business.
  add(600, START + (50 * 24 + 18) * HOUR, 3 * HOUR, null, () => usualRating(0.07), newClient, 'invitation');
  // A viral post about the mugs (day 70, 12:00 to 14:00): praise by the hundred, a few low ones.
  add(600, START + (70 * 24 + 12) * HOUR, 2 * HOUR, products.mugRed, () => usualRating(0.03));
  // One unhappy customer (day 80, 09:00): thirty one-star reviews of the lamp from one address.
  add(30, START + (80 * 24 + 9) * HOUR, HOUR / 2, products.lamp, () => 1, () => 'angry-customer');
  // The bombing (day 89, 15:00 to 15:50): 40 one- and two-star reviews of the mugs from 25 addresses.
  const bombers = Array.from({ length: 25 }, () => newClient());
  let k = 0;
  add(
    40,
    START + (89 * 24 + 15) * HOUR,
    50 * 60_000,
    products.mugBlue,
    () => (random() < 0.8 ? 1 : 2),
    () => bombers[k++ % bombers.length],
  );
}

beforeAll(async () => {
  t = await createTenant();
  const [form] = await db<{ id: string }[]>`
    insert into plaudit.review_forms (org_id, name, verification_mode) values (${t.org.id}, 'Form', 'none') returning id`;
  formId = form.id;
  const rows = await db<{ id: string; external_id: string }[]>`
    insert into plaudit.products (org_id, external_id, name, group_key)
    values (${t.org.id}, 'lamp', 'Lamp', null), (${t.org.id}, 'mug-red', 'Red mug', 'mugs'),
           (${t.org.id}, 'mug-blue', 'Blue mug', 'mugs')
    returning id, external_id`;
  const ids = Object.fromEntries(rows.map((r) => [r.external_id, r.id]));
  generate({ lamp: ids.lamp, mugRed: ids['mug-red'], mugBlue: ids['mug-blue'] });
  history.sort((a, b) => a.at - b.at);
  // Stored as submissions leave them: the review, and its arrival (subject, rating, client hash).
  for (let i = 0; i < history.length; i += 2000) {
    const chunk = history.slice(i, i + 2000).map((a, j) => ({
      n: i + j,
      at: new Date(a.at).toISOString(),
      rating: a.rating,
      product: a.product,
      client: createHash('sha256').update(`submit:${a.client}`).digest('hex'),
      source: a.source,
    }));
    await db`
      with input as (
        select * from jsonb_to_recordset(${db.json(chunk)}::jsonb)
          as x(n integer, at timestamptz, rating integer, product uuid, client text, source text)
      ), stored as (
        insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email,
                                     verification_status, product_id, source, created_at)
        select ${t.org.id}, ${formId}, x.rating, 'Review ' || x.n, 'Rev', 'rev' || x.n || '@example.com',
               'unverified', x.product, x.source, x.at
          from input x
        returning id, rating, product_id, created_at, reviewer_email
      )
      insert into plaudit.review_arrivals (review_id, org_id, subject, rating, client_key, product_id, created_at)
      select s.id, ${t.org.id}, plaudit.review_subject(s.product_id), s.rating, decode(x.client, 'hex'), s.product_id,
             s.created_at
        from stored s join input x on 'rev' || x.n || '@example.com' = s.reviewer_email`;
  }
}, 120_000);

afterAll(async () => {
  await db`update plaudit.review_holds set released_at = now(), released_by = 'member:test' where org_id = ${t.org.id}
            and released_at is null`;
});

describe('burst detection on 90 days of history', () => {
  it(
    'opens one hold, on the mugs in the bombing hour, and none for the launch, the sale, the viral post or one address',
    {
      timeout: 300_000,
    },
    async () => {
      const opened: { at: string; subject: string; figures: Record<string, unknown> }[] = [];
      for (let step = 1; step <= DAYS * 48; step++) {
        const now = new Date(START + step * (HOUR / 2)).toISOString();
        const holds = await db<{ subject: string; figures: Record<string, unknown> }[]>`
        select subject, figures from plaudit.detect_review_bursts(${now}::timestamptz, ${[t.org.id]}::uuid[])`;
        for (const h of holds) opened.push({ at: now, ...h });
      }
      expect(history.length).toBeGreaterThan(8000);
      expect(opened.map((h) => [h.at, h.subject])).toEqual([
        [new Date(START + (89 * 24 + 15.5) * HOUR).toISOString(), 'group:mugs'],
      ]);
      expect(opened[0].figures).toMatchObject({ client_addresses: expect.any(Number), hourly_median_28_days: 0 });
      expect(opened[0].figures.low_ratings as number).toBeGreaterThanOrEqual(10);
    },
  );
});
