// Fault injection: 1,000 events, a receiver that fails 20 % of its answers, and the worker process
// (Deno, as npm start runs it) killed with SIGKILL twice mid-run. Every event must arrive; a
// delivery whose worker died after sending is sent again once its lease expires, so duplicates
// are possible (at-least-once) and are counted and reported.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorkerProcess } from '../../../scripts/lib/worker-process.mjs';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, startReceiver } from '../../helpers/receiver.ts';

const EVENTS = 1000;

// A deterministic 20 % failure pattern (a linear congruential generator).
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

type Proc = { child: import('node:child_process').ChildProcess; stop: () => Promise<void> };
const procs: Proc[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop();
});

describe('fault injection', () => {
  it(
    'delivers every one of 1,000 events despite 20 % failures and two killed workers',
    { timeout: 120_000 },
    async () => {
      const t = await createTenant();
      const okCount = new Map<string, number>();
      let failures = 0;
      const receiver = await startReceiver((req) => {
        if (random() < 0.2) {
          failures += 1;
          return { status: random() < 0.5 ? 500 : 503 };
        }
        const id = JSON.parse(req.body).data.n as string;
        okCount.set(id, (okCount.get(id) ?? 0) + 1);
        return { status: 200 };
      });
      try {
        const reg = await api('POST', `/api/v1/organizations/${t.org.id}/webhooks`, {
          key: t.keys.write,
          body: { url: receiver.url, events: ['review.created'] },
        });
        expect(reg.status).toBe(201);

        await db`
        select plaudit.emit_event(${t.org.id}, 'review.created', jsonb_build_object('n', g::text, 'rating', 5))
        from generate_series(1, ${EVENTS}) g`;

        const logFile = fs.openSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'fault-worker.log'), 'a');
        const spawnWorker = async () => {
          const p: Proc = await startWorkerProcess({
            databaseUrl: process.env.TEST_API_DATABASE_URL,
            stdio: logFile,
            env: {
              PLAUDIT_ENV: 'development',
              WORKER_ORG_IDS: t.org.id,
              WORKER_LEASE_SECONDS: '2',
              WORKER_POLL_MS: '50',
              WORKER_RETRY_SCALE: '0.0002',
              WEBHOOK_TIMEOUT_MS: '1000',
              WEBHOOK_CONCURRENCY_PER_ENDPOINT: '16',
              EMAIL_TRANSPORT: 'none',
            },
          });
          procs.push(p);
          return p;
        };

        const kills: number[] = [];
        let w = await spawnWorker();
        for (const at of [250, 600]) {
          await receiver.waitFor(at, 60_000);
          w.child.kill('SIGKILL');
          await new Promise((r) => w.child.once('exit', r));
          kills.push(receiver.requests.length);
          w = await spawnWorker();
        }

        await eventually(
          async () => {
            const [{ n }] = await db`
          select count(*)::integer as n from plaudit.webhook_deliveries d
          join plaudit.webhook_endpoints e on e.id = d.endpoint_id
          where e.org_id = ${t.org.id} and d.status = 'succeeded'`;
            return n === EVENTS;
          },
          90_000,
          'every delivery recorded as succeeded',
        );

        const missing = Array.from({ length: EVENTS }, (_, i) => String(i + 1)).filter((n) => !okCount.has(n));
        const duplicates = [...okCount.values()].reduce((sum, c) => sum + c - 1, 0);
        const [{ pending, failed }] = await db`
        select count(*) filter (where status = 'pending')::integer as pending,
               count(*) filter (where status in ('failed', 'cancelled'))::integer as failed
        from plaudit.webhook_deliveries d where d.org_id = ${t.org.id}`;
        const report = {
          events: EVENTS,
          requests: receiver.requests.length,
          failed_answers: failures,
          delivered: okCount.size,
          missing: missing.length,
          duplicates,
          killed_at_request: kills,
        };
        console.log(`fault injection: ${JSON.stringify(report)}`);
        fs.writeFileSync(
          path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'fault-injection.json'),
          JSON.stringify(report) + '\n',
        );

        expect(missing).toEqual([]);
        expect(okCount.size).toBe(EVENTS);
        expect(pending).toBe(0);
        expect(failed).toBe(0);
        expect(kills).toHaveLength(2);
        expect(failures).toBeGreaterThan(EVENTS * 0.1);
        // Duplicates only come from sends whose outcome a killed worker could not record.
        expect(duplicates).toBeLessThanOrEqual(2 * 16);
      } finally {
        await receiver.close();
      }
    },
  );
});
