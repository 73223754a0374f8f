// review-requests (docs/review-requests.md):
//   bulk      BENCH_RR_CALLS (20) sequential POST …/review-requests/bulk calls of 1,000 rows each:
//             per-call latency, next to pgbench running the same INSERTs (1,000 requests, their
//             `queued` events and their outbox e-mails, with links) in one transaction, one client;
//   sending   the worker (Deno, as npm start runs it) sending BENCH_RR_SEND (2,000) queued
//             review-request e-mails over SMTP to the local capture (scripts/lib/dev-mail.mjs),
//             messages/s from its start to the last recorded send, next to a bare SMTP client
//             loop (nodemailer, 10 messages in flight, as the worker's batch) to the same server.
import nodemailer from 'nodemailer';
import { startDevMail } from '../../lib/dev-mail.mjs';
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { percentile, positive } from '../stats.mjs';

export async function tenant(sql, slug) {
  const [org] = await sql`insert into plaudit.organizations (name, slug) values (${
    'Bench ' + slug
  }, ${slug}) returning id`;
  const [form] =
    await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench form') returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench', 'write')`;
  await sql`insert into plaudit.review_request_settings (org_id, daily_quota) values (${org.id}, 100000)`;
  return { orgId: org.id, formId: form.id, key: key.key };
}

export async function bulk(apiUrl, t, call, rows = 1000) {
  const body = JSON.stringify({
    requests: Array.from({ length: rows }, (_, i) => ({
      email: `c${call}-${i}@bench.example`,
      name: `Customer ${call}-${i}`,
      form_id: t.formId,
      external_id: `o-${call}-${i}`,
    })),
  });
  const started = performance.now();
  const res = await fetch(`${apiUrl}/api/v1/organizations/${t.orgId}/review-requests/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body,
  });
  const json = await res.json();
  const ms = performance.now() - started;
  if (res.status !== 202 || json.accepted !== rows) {
    throw new Error(`bulk call answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  }
  return ms;
}

const SAME_INSERTS = (orgId, formId) => `
begin;
with r as (
  insert into plaudit.review_requests (org_id, form_id, email, name, link_base)
  select '${orgId}', '${formId}', 'p' || g || '-' || :client_id || '-' || floor(random() * 1e12)::bigint || '@bench.example',
         'Customer ' || g, 'http://127.0.0.1:54321'
  from generate_series(1, 1000) g
  returning id, org_id, email, name
), e as (
  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied)
  select org_id, id, 'queued', 'queued', now(), true from r
)
insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
select org_id, email, 'review_request', 'en',
       jsonb_build_object('review_request_id', id, 'name', name, 'form_name', 'Bench form')
         || plaudit.review_request_links(id, 'http://127.0.0.1:54321'),
       'review_request:' || id
from r;
commit;
`;

async function bareSmtpLoop(smtpUrl, count, html, text) {
  const transport = nodemailer.createTransport(smtpUrl);
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next < count) {
      const n = next++;
      await transport.sendMail({
        from: 'Plaudit <no-reply@plaudit.bench>',
        to: `bare${n}@bench.example`,
        subject: 'How was your experience with Bench?',
        text,
        html,
      });
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return count / seconds;
}

export default {
  name: 'review-requests',
  description:
    'Bulk review requests: a 1,000-row call (p50/p99 ms) vs the same INSERTs in pgbench; worker e-mails/s to local SMTP vs a bare SMTP client loop',
  async run(ctx) {
    const { stack } = ctx;
    const sql = stack.sql;
    const calls = positive(ctx.env, 'BENCH_RR_CALLS', 20);
    const toSend = positive(ctx.env, 'BENCH_RR_SEND', 2000);

    // Bulk acceptance.
    const t = await tenant(sql, 'rr-bulk');
    ctx.log('warm-up: 2 bulk calls');
    for (let i = 0; i < 2; i++) await bulk(stack.api.url, t, `w${i}`);
    ctx.log(`${calls} bulk calls of 1,000 rows`);
    const latencies = [];
    for (let i = 0; i < calls; i++) latencies.push(await bulk(stack.api.url, t, i));
    latencies.sort((a, b) => a - b);
    const bulkP50 = percentile(latencies, 50);
    ctx.log('pgbench: the same INSERTs, 1 client');
    const ref = await ctx.pgbench({
      url: stack.superuserUrl,
      script: SAME_INSERTS(t.orgId, t.formId),
      clients: 1,
      threads: 1,
    });

    // Sending.
    const s = await tenant(sql, 'rr-send');
    const mail = await startDevMail();
    let worker;
    try {
      ctx.log(`queueing ${toSend} review-request e-mails`);
      for (let i = 0; i * 1000 < toSend; i++) await bulk(stack.api.url, s, `s${i}`, Math.min(1000, toSend - i * 1000));
      const started = performance.now();
      worker = await startWorkerProcess({
        databaseUrl: stack.authenticatorUrl,
        stdio: 'ignore',
        env: {
          PLAUDIT_ENV: 'production',
          WORKER_ORG_IDS: s.orgId,
          EMAIL_TRANSPORT: 'smtp',
          SMTP_URL: mail.smtpUrl,
          EMAIL_FROM: 'Plaudit <no-reply@plaudit.bench>',
        },
      });
      const deadline = Date.now() + 600_000;
      let sent = 0;
      while (Date.now() < deadline) {
        [{ sent }] =
          await sql`select count(*)::int as sent from plaudit.email_outbox where org_id = ${s.orgId} and status = 'sent'`;
        if (sent >= toSend) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (sent < toSend) throw new Error(`only ${sent} of ${toSend} e-mails were sent`);
      const workerRate = toSend / ((performance.now() - started) / 1000);
      await worker.stop();
      worker = null;

      ctx.log(`reference: ${toSend} messages through a bare SMTP client loop`);
      // The same message as the worker sent (as captured), so both sides move the same bytes.
      const rendered = mail.messages()[0];
      const bareRate = await bareSmtpLoop(mail.smtpUrl, toSend, rendered.html, rendered.text);

      return {
        rows: [
          {
            name: 'POST …/review-requests/bulk, 1,000 rows',
            rps: 1000 / (bulkP50 / 1000),
            p50: bulkP50,
            p99: percentile(latencies, 99),
          },
          { name: 'pgbench: the same INSERTs, 1 transaction', rps: ref.rps * 1000, p50: ref.p50, p99: ref.p99 },
          { name: `worker: ${toSend} e-mails over SMTP (msg/s)`, rps: workerRate },
          { name: 'bare SMTP client loop, 10 in flight (msg/s)', rps: bareRate },
        ],
        ratios: [
          { name: 'pgbench p50 ÷ bulk p50', value: ref.p50 / bulkP50 },
          { name: 'worker ÷ bare SMTP', value: workerRate / bareRate },
        ],
      };
    } finally {
      if (worker) await worker.stop();
      await mail.close();
    }
  },
};
