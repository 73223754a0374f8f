// Tenancy under attack, over every organization route of the served document: an admin key of one
// organization sends every operation (a) at another organization, and (b) at its own
// organization naming the other's records. Neither ever succeeds, and afterwards not one row of
// the other organization has changed. Routes come from the document, so a route is covered the
// day it is declared; a new kind of record must be given one of the victim's below.
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/http.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { type Operation, operations } from '../../helpers/openapi-operations.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';

let attacker: Tenant;
let victim: Tenant;
let orgOps: Operation[];
/** The victim's records, by the collection that names them in a path (`…/{collection}/{id}`). */
const victimIds: Record<string, string> = {};

async function created(t: Tenant, path: string, body: unknown, key = t.keys.admin): Promise<string> {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}${path}`, { key, body });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return (res.body.data?.[0] ?? res.body).id;
}

// The queues the test run's worker advances on its own (the victim's export being written, its
// events fanned out, its purges and e-mails sent): they move whatever the attacker does.
const ADVANCED_BY_THE_WORKER = [
  'cdn_purges',
  'email_outbox',
  'events',
  'export_chunks',
  'exports',
  'webhook_deliveries',
];

/** Every row of every other table holding the victim's data, as one digest per table. */
async function victimRows(): Promise<Record<string, string>> {
  const tables = await db<{ table_name: string }[]>`
    select c.table_name from information_schema.columns c
      join information_schema.tables t using (table_schema, table_name)
     where c.table_schema = 'plaudit' and c.column_name = 'org_id' and t.table_type = 'BASE TABLE'
       and c.table_name <> all (${ADVANCED_BY_THE_WORKER})
     order by 1`;
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await db.unsafe(
      `select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest
         from plaudit.${table_name} t where org_id = $1`,
      [victim.org.id],
    );
    out[table_name] = row.digest;
  }
  return out;
}

function fill(op: Operation, orgId: string, ids: (param: string, collection: string) => string): string {
  const segments = op.path.split('/');
  return segments.map((s, i) => {
    const m = /^\{(\w+)\}$/.exec(s);
    if (!m) return s;
    return m[1] === 'orgId' ? orgId : encodeURIComponent(ids(m[1], segments[i - 1]));
  }).join('/');
}

const randomId = () => crypto.randomUUID();
const succeeded = (status: number) => status >= 200 && status < 300;

beforeAll(async () => {
  [attacker, victim] = await Promise.all([createTenant(), createTenant()]);
  const form = await createForm(api, victim);
  victimIds['review-forms'] = form.id;
  victimIds.products = await created(victim, '/products', { external_id: 'MUG', name: 'Mug' }, victim.keys.write);
  [victimIds.reviews] = await postReviews(form.id, `victim-${victim.org.slug}`, [[4, null, 'A mug.', 'Vic']], 'MUG');
  const photo = await upload(victimIds.reviews, await jpegWithGps(40, 30), { key: victim.keys.write });
  victimIds.media = photo.body.id;
  victimIds.webhooks = await created(victim, '/webhooks', {
    url: 'https://hooks.example.com/plaudit',
    events: ['review.created'],
  });
  victimIds.exports = await created(victim, '/exports', { format: 'csv' }, victim.keys.write);
  victimIds['review-requests'] = await created(victim, '/review-requests', {
    email: 'shopper@example.com',
    name: 'Sam',
    form_id: form.id,
    send_at: new Date(Date.now() + 86_400_000).toISOString(),
  }, victim.keys.write);
  victimIds.invitations = await created(victim, '/invitations', { email: 'staff@example.com', role: 'member' });
  victimIds.suppressions = await created(victim, '/suppressions', { email: 'gone@example.com' }, victim.keys.write);
  // A finished import (a multipart upload is not what `created` posts; nothing advances a finished one).
  const [imported] = await db<{ id: string }[]>`
    insert into plaudit.imports (org_id, format, dry_run, status, total_rows, actor, completed_at)
    values (${victim.org.id}, 'judgeme', true, 'completed', 0, 'api_key:victim', now()) returning id`;
  victimIds.imports = imported.id;
  victimIds['api-keys'] = victim.keyIds.read;
  // A visitor's report of the victim's review (a public write).
  const reported = await api('POST', `/api/v1/public/reviews/${victim.org.slug}/${victimIds.reviews}/reports`, {
    body: { reason: 'spam' },
  });
  expect(reported.status).toBe(202);
  [{ id: victimIds.reports }] = await db<{ id: string }[]>`
    select id from plaudit.review_reports where org_id = ${victim.org.id}`;
  // A shopper's question about the victim's product, with the business's answer.
  const [question] = await db<{ id: string }[]>`
    insert into plaudit.questions (org_id, product_id, question, asker_name, asker_email, status,
                                   confirmation_token_hash, confirmed_at)
    values (${victim.org.id}, ${victimIds.products}, 'Is it dishwasher safe?', 'Ann', 'ann@example.com', 'published',
            sha256(convert_to(${victim.org.id}::text, 'UTF8')), now()) returning id`;
  victimIds.questions = question.id;
  const [answer] = await db<{ id: string }[]>`
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content)
    values (${victim.org.id}, ${question.id}, 'business', 'Victim', 'Yes.') returning id`;
  victimIds.answers = answer.id;
  // A reviewer's appeal against the hide of another of the victim's reviews, through its statement's token.
  const [appealed] = await postReviews(form.id, `victim-appeal-${victim.org.slug}`, [[1, null, 'Rude', 'Ann']]);
  await db`update plaudit.reviews set is_hidden = true where id = ${appealed}`;
  const [{ appeal_id }] = await db<{ appeal_id: string }[]>`
    select appeal_id from plaudit.submit_appeal(
      (select data ->> 'appeal_token' from plaudit.email_outbox
        where org_id = ${victim.org.id} and template = 'statement_of_reasons'), 'I was fair')`;
  victimIds.appeals = appeal_id;
  // An open review bombing hold of the victim's (the worker opens them; its figures as it writes them).
  const [hold] = await db<{ id: string }[]>`
    insert into plaudit.review_holds (org_id, subject, started_at, figures)
    values (${victim.org.id}, 'business', now(), '{"low_ratings": 12}') returning id`;
  victimIds.holds = hold.id;
  // Members join by signing in (tests/helpers/sessions.ts makes them the same way).
  const [member] = await db<{ id: string }[]>`
    insert into plaudit.members (org_id, email, name, role) values (${victim.org.id}, 'owner@example.com', 'Olga', 'owner')
    returning id`;
  victimIds.members = member.id;
  // A shop connection, and an order it made (orders are named by the shop's own id).
  victimIds.connections = await created(victim, '/connections', {
    platform: 'shopify',
    shop_domain: `${victim.org.slug}.myshopify.com`,
    webhook_secret: 'shpss_victim',
  });
  await db`insert into plaudit.orders (org_id, order_id, email, connection_id, platform, status)
           values (${victim.org.id}, '#9001', 'buyer@example.com', ${victimIds.connections}, 'shopify', 'paid')`;
  victimIds.orders = '#9001';
  const doc = await api('GET', '/api/v1/openapi.json');
  orgOps = operations(doc.body).filter((o) => o.path.includes('{orgId}'));
});

describe("an organization's admin key against another organization", () => {
  it('gets 403 from every organization route that names the other organization', async () => {
    expect(orgOps.length).toBeGreaterThan(40);
    const before = await victimRows();
    const answers: string[] = [];
    for (const op of orgOps) {
      const path = fill(op, victim.org.id, (_, collection) => victimIds[collection] ?? randomId());
      const res = await api(op.method, path, { key: attacker.keys.admin, body: op.bodyProperties ? {} : undefined });
      if (res.status !== 403) answers.push(`${op.method} ${op.path} → ${res.status}`);
    }
    expect(answers).toEqual([]);
    expect(await victimRows()).toEqual(before);
  });

  it("never reaches the other organization's records through its own organization's routes", async () => {
    const collections = new Set(
      orgOps.flatMap((op) => op.path.split('/').filter((_, i, s) => /^\{(id|\w+Id)\}$/.test(s[i + 1] ?? ''))),
    );
    collections.delete('organizations');
    collections.delete('deliveries'); // a delivery is named under its webhook, which is the victim's
    expect([...collections].filter((c) => !victimIds[c]), 'collections without a record of the victim here').toEqual(
      [],
    );
    const before = await victimRows();
    const leaks: string[] = [];
    const named = orgOps.filter((o) => o.pathParams.length > 1);
    expect(named.length).toBeGreaterThan(25);
    for (const op of named) {
      const path = fill(op, attacker.org.id, (_, collection) => victimIds[collection] ?? randomId());
      const res = await api(op.method, path, { key: attacker.keys.admin, body: op.bodyProperties ? {} : undefined });
      if (succeeded(res.status) || res.status >= 500) leaks.push(`${op.method} ${op.path} → ${res.status}`);
      // What the other organization holds never shows, even in a refusal.
      expect(JSON.stringify(res.body ?? ''), `${op.method} ${op.path}`).not.toContain(victim.org.id);
    }
    expect(leaks).toEqual([]);
    expect(await victimRows()).toEqual(before);
  });

  it("finds none of the other organization's records in its own lists", async () => {
    for (
      const collection of [
        'products',
        'reviews',
        'review-forms',
        'webhooks',
        'exports',
        'review-requests',
        'connections',
        'orders',
      ]
    ) {
      const res = await api('GET', `/api/v1/organizations/${attacker.org.id}/${collection}`, {
        key: attacker.keys.admin,
      });
      expect(res.status, collection).toBe(200);
      expect(JSON.stringify(res.body), collection).not.toContain(victimIds[collection]);
    }
  });

  it("counts none of the other organization's notices or appeals in its own DSA transparency report", async () => {
    const year = new Date().getUTCFullYear();
    const [victims] = await db<{ notices: number; appeals: number }[]>`
      select (select count(*)::integer from plaudit.review_reports where org_id = ${victim.org.id}) as notices,
             (select count(*)::integer from plaudit.review_appeals where org_id = ${victim.org.id}) as appeals`;
    expect(victims).toEqual({ notices: 1, appeals: 1 });
    const res = await api('GET', `/api/v1/organizations/${attacker.org.id}/transparency/dsa?year=${year}`, {
      key: attacker.keys.admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.notices.received.total).toBe(0);
    expect(res.body.own_initiative_restrictions.total).toBe(0);
    expect(res.body.appeals.received).toBe(0);
    expect(JSON.stringify(res.body)).not.toContain(victim.org.id);
  });
});
