// The worker: drains the webhook and e-mail outboxes, kicks export generation, and runs the
// scheduled maintenance where pg_cron is absent. Runtime-neutral (Deno in production and with
// npm start, Node under vitest): functions/worker/index.ts wires it to the process.
//
// Webhooks: deliveries are claimed in batches with a lease (FOR UPDATE SKIP LOCKED) and sent
// concurrently; each result is recorded as soon as it arrives, and the freed slot is refilled at
// once, so a slow endpoint holds at most its per-endpoint share of slots and never the batch.
// One organization holds at most `perOrgConcurrency` of this worker's slots, an endpoint in a
// failure run one, and suspects (endpoints that are slow or failing) together at most
// `suspectConcurrency` (the claim enforces all three), so slow or dead endpoints, of however many
// organizations, always leave slots to the endpoints that answer in time.
import type { Sql } from '../core/db/client.ts';
import { renderEmail, UnknownTemplateError } from '../core/email/templates.ts';
import { createTransport, type EmailTransport, PermanentEmailError } from '../core/email/transport.ts';
import { resolveHost } from '../core/net/dns.ts';
import type { Resolver } from '../core/net/ssrf.ts';
import { EMAIL_SCHEDULE_MS, nextRetryDelay, WEBHOOK_SCHEDULE_MS } from '../core/webhooks/retry.ts';
import { type AttemptResult, sendDelivery, type SignedDelivery } from '../core/webhooks/send.ts';
import type { WorkerConfig } from './config.ts';
import { asWorker } from '../core/db/roles.ts';
import { redact } from '../core/redact.ts';

export type WorkerLog = (line: Record<string, unknown>) => void;

export interface WorkerDeps {
  sql: Sql;
  config: WorkerConfig;
  log?: WorkerLog;
  resolve?: Resolver;
  random?: () => number;
  emailTransport?: EmailTransport | null;
}

interface EmailRow {
  id: string;
  claim_token: string;
  org_id: string;
  org_name: string;
  to_address: string;
  template: string;
  locale: string;
  data: Record<string, unknown>;
  idempotency_key: string;
  attempt: number;
}

export interface WorkerStats {
  webhookAttempts: number;
  webhookSucceeded: number;
  emailsSent: number;
  emailFailures: number;
  exportKicks: number;
}

const orgIdsLiteral = (ids: string[] | null) => (ids ? `{${ids.join(',')}}` : null);

// Send and database errors can quote addresses, URLs with credentials or secrets.
const defaultLog: WorkerLog = (line) =>
  console.log(redact(JSON.stringify({ time: new Date().toISOString(), ...line })));

export class Worker {
  readonly stats: WorkerStats = {
    webhookAttempts: 0,
    webhookSucceeded: 0,
    emailsSent: 0,
    emailFailures: 0,
    exportKicks: 0,
  };
  #sql: Sql;
  #config: WorkerConfig;
  #log: WorkerLog;
  #resolve: Resolver;
  #random: () => number;
  #email: EmailTransport | null;
  #inFlight = new Set<Promise<void>>();
  /** Webhook calls in flight per organization, for the claim's organization cap. */
  #orgInFlight = new Map<string, number>();
  /** Webhook calls in flight to slow or failing endpoints, for the claim's share of suspects. */
  #suspectsInFlight = 0;
  #emailsInFlight = 0;
  #running = false;
  #stopped = false;
  #wakeUp: (() => void) | null = null;
  #woken = false;
  #loop: Promise<void> | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #exportsRunning: Promise<void> | null = null;
  #exportsWanted = true;
  #emailsWanted = true;
  #lastMaintenance = 0;
  #hasCron: boolean | null = null;

  constructor(deps: WorkerDeps) {
    this.#sql = deps.sql;
    this.#config = deps.config;
    this.#log = deps.log ?? defaultLog;
    this.#resolve = deps.resolve ?? resolveHost;
    this.#random = deps.random ?? Math.random;
    this.#email = deps.emailTransport === undefined ? createTransport(deps.config.email) : deps.emailTransport;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Runs until stop(): woken by NOTIFY plaudit_outbox and by the poll timer. */
  async start({ listen = true } = {}): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#stopped = false;
    if (listen) {
      const sub = await this.#sql.listen('plaudit_outbox', (payload) => {
        if (payload === 'export') this.#exportsWanted = true;
        if (payload === 'email') this.#emailsWanted = true;
        this.wake();
      });
      this.#unlisten = () => sub.unlisten();
    }
    if (!this.#email && this.#config.email.transport !== 'none') {
      this.#log({ level: 'warn', msg: 'e-mail transport is not configured; messages stay queued' });
    }
    this.#loop = this.#run();
  }

  /** Stops claiming, then waits for what is in flight (at most `graceMs`). */
  async stop(graceMs = 10_000): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop?.catch(() => {});
    await Promise.race([
      Promise.allSettled([...this.#inFlight, this.#exportsRunning]),
      new Promise((r) => setTimeout(r, graceMs)),
    ]);
    await this.#unlisten?.().catch(() => {});
    await this.#email?.close?.();
    this.#running = false;
  }

  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  async #sleep(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#wakeUp = null;
        resolve();
      }, ms);
      this.#wakeUp = () => {
        clearTimeout(timer);
        this.#wakeUp = null;
        resolve();
      };
    });
    this.#woken = false;
  }

  async #run(): Promise<void> {
    let lastExportPoll = 0;
    let lastEmailPoll = 0;
    while (!this.#stopped) {
      let progressed = false;
      try {
        // E-mail and exports are looked for when notified, and on the poll timer; a wake-up
        // because a webhook send finished does not query their tables.
        if (Date.now() - lastEmailPoll >= this.#config.pollMs) {
          this.#emailsWanted = true;
          lastEmailPoll = Date.now();
        }
        progressed = await this.tick();
        if (Date.now() - lastExportPoll >= 5000) {
          this.#exportsWanted = true;
          lastExportPoll = Date.now();
        }
      } catch (err) {
        this.#log({ level: 'error', msg: 'worker tick failed', error: (err as Error).message });
        await new Promise((r) => setTimeout(r, Math.min(this.#config.pollMs * 5, 5000)));
      }
      if (!progressed && !this.#stopped) await this.#sleep(this.#config.pollMs);
    }
  }

  /**
   * One round: claims what it has room for and starts sending it (without waiting for the
   * answers), kicks exports and maintenance. Answers whether anything was claimed.
   */
  async tick(): Promise<boolean> {
    const [hooks, mails] = await Promise.all([this.#claimWebhooks(), this.#claimEmails()]);
    this.#kickExports();
    await this.#maintenance();
    return hooks + mails > 0;
  }

  /** Sends everything due now and waits for it: for the edge function and for tests. */
  async drain({ maxMs = 50_000 } = {}): Promise<void> {
    const deadline = Date.now() + maxMs;
    this.#exportsWanted = true;
    this.#emailsWanted = true;
    while (Date.now() < deadline) {
      const claimed = await this.tick();
      if (!claimed && this.#inFlight.size === 0 && !this.#exportsRunning) break;
      if (!claimed) {
        await Promise.race([
          Promise.race([...this.#inFlight, this.#exportsRunning].filter(Boolean)),
          new Promise((r) => setTimeout(r, 50)),
        ]);
      }
    }
    await Promise.allSettled([...this.#inFlight, this.#exportsRunning]);
  }

  async #claimWebhooks(): Promise<number> {
    const room = this.#config.concurrency - this.#inFlight.size;
    if (room <= 0) return 0;
    const c = this.#config;
    const orgBusy = JSON.stringify(Object.fromEntries(this.#orgInFlight));
    const suspectRoom = Math.max(0, c.suspectConcurrency - this.#suspectsInFlight);
    const rows = await asWorker(this.#sql, (tx) =>
      tx<(SignedDelivery & { suspect: boolean })[]>`
        select * from plaudit.claim_webhook_deliveries(
          ${Math.min(room, c.batchSize)}, ${c.leaseSeconds}, ${c.perEndpointConcurrency},
          ${orgIdsLiteral(c.orgIds)}::uuid[], ${c.perOrgConcurrency}::integer, ${orgBusy}::text::jsonb,
          ${suspectRoom}::integer)`);
    for (const row of rows) {
      this.#orgInFlight.set(row.org_id, (this.#orgInFlight.get(row.org_id) ?? 0) + 1);
      if (row.suspect) this.#suspectsInFlight += 1;
      const p: Promise<void> = this.#deliver(row).finally(() => {
        const n = (this.#orgInFlight.get(row.org_id) ?? 1) - 1;
        if (n > 0) this.#orgInFlight.set(row.org_id, n);
        else this.#orgInFlight.delete(row.org_id);
        if (row.suspect) this.#suspectsInFlight -= 1;
        this.#inFlight.delete(p);
        this.wake();
      });
      this.#inFlight.add(p);
    }
    return rows.length;
  }

  async #deliver(d: SignedDelivery): Promise<void> {
    let result: AttemptResult;
    try {
      result = await sendDelivery(d, {
        environment: this.#config.environment,
        timeoutMs: this.#config.webhookTimeoutMs,
        resolve: this.#resolve,
      });
    } catch (err) {
      result = {
        outcome: 'retry',
        statusCode: null,
        durationMs: 0,
        error: (err as Error).message,
        responseSnippet: null,
        retryAfterMs: null,
      };
    }
    this.stats.webhookAttempts += 1;
    if (result.outcome === 'succeeded') this.stats.webhookSucceeded += 1;
    const retryIn = result.outcome === 'retry'
      ? nextRetryDelay(WEBHOOK_SCHEDULE_MS, d.schedule_step, {
        scale: this.#config.retryScale,
        random: this.#random,
        retryAfterMs: result.retryAfterMs,
      })
      : null;
    try {
      const [{ status }] = await asWorker(this.#sql, (tx) =>
        tx<{ status: string | null }[]>`
          select plaudit.record_webhook_attempt(
            ${d.id}, ${d.claim_token}, ${result.statusCode}, ${result.durationMs}, ${result.error},
            ${result.responseSnippet}, ${result.outcome}, ${retryIn}, ${this.#config.disableAfterSeconds},
            ${this.#config.slowMs}
          ) as status`);
      this.#log({
        level: result.outcome === 'succeeded' ? 'info' : 'warn',
        msg: 'webhook attempt',
        delivery_id: d.id,
        endpoint_id: d.endpoint_id,
        event: d.event_type,
        attempt: d.attempt,
        status_code: result.statusCode,
        ms: result.durationMs,
        outcome: result.outcome,
        error: result.error,
        next: status,
        retry_in_ms: status === 'pending' ? retryIn : null,
      });
    } catch (err) {
      // The lease runs out and the delivery is claimed again: at-least-once.
      this.#log({
        level: 'error',
        msg: 'could not record a webhook attempt',
        delivery_id: d.id,
        error: (err as Error).message,
      });
    }
  }

  async #claimEmails(): Promise<number> {
    if (!this.#email || this.#emailsInFlight > 0 || !this.#emailsWanted) return 0;
    this.#emailsWanted = false;
    const c = this.#config;
    const rows = await asWorker(this.#sql, (tx) =>
      tx<EmailRow[]>`
        select * from plaudit.claim_emails(10, ${c.leaseSeconds},
          ${orgIdsLiteral(c.orgIds)}::uuid[])`);
    if (rows.length === 0) return 0;
    this.#emailsWanted = true; // there may be more
    this.#emailsInFlight = rows.length;
    const p: Promise<void> = Promise.allSettled(rows.map((r) => this.#sendEmail(r))).then(() => {
      this.#emailsInFlight = 0;
      this.#inFlight.delete(p);
      this.wake();
    });
    this.#inFlight.add(p);
    return rows.length;
  }

  async #sendEmail(row: EmailRow): Promise<void> {
    let sent = false;
    let providerId: string | null = null;
    let error: string | null = null;
    let permanent = false;
    try {
      const rendered = renderEmail(row.template, {
        locale: row.locale,
        orgName: row.org_name,
        data: row.data ?? {},
      });
      const result = await this.#email!.send({
        ...rendered,
        from: this.#config.email.from,
        to: row.to_address,
        idempotencyKey: row.idempotency_key,
      });
      sent = true;
      providerId = result.providerMessageId;
    } catch (err) {
      error = (err as Error).message;
      permanent = err instanceof PermanentEmailError || err instanceof UnknownTemplateError;
    }
    const retryIn = sent || permanent
      ? null
      : nextRetryDelay(EMAIL_SCHEDULE_MS, row.attempt, { scale: this.#config.retryScale, random: this.#random });
    if (sent) this.stats.emailsSent += 1;
    else this.stats.emailFailures += 1;
    try {
      const [{ status }] = await asWorker(this.#sql, (tx) =>
        tx<{ status: string }[]>`
          select plaudit.record_email_result(${row.id}, ${row.claim_token}, ${sent}, ${providerId},
                                             ${error}, ${retryIn}) as status`);
      this.#log({
        level: sent ? 'info' : 'warn',
        msg: 'e-mail',
        email_id: row.id,
        template: row.template,
        attempt: row.attempt,
        outcome: status,
        error,
      });
    } catch (err) {
      this.#log({ level: 'error', msg: 'could not record an e-mail', email_id: row.id, error: (err as Error).message });
    }
  }

  #kickExports(): void {
    if (!this.#exportsWanted || this.#exportsRunning) return;
    this.#exportsWanted = false;
    const budget = this.#config.exportBudgetMs;
    this.#exportsRunning = (async () => {
      try {
        for (;;) {
          const [{ remaining }] = await asWorker(
            this.#sql,
            (tx) => tx<{ remaining: number }[]>`select plaudit.run_exports(${budget}) as remaining`,
          );
          this.stats.exportKicks += 1;
          if (!remaining || this.#stopped) break;
        }
      } catch (err) {
        if ((err as { code?: string }).code !== '42883') { // run_exports not installed
          this.#log({ level: 'error', msg: 'export generation failed', error: (err as Error).message });
        }
      } finally {
        this.#exportsRunning = null;
      }
    })();
  }

  async #maintenance(): Promise<void> {
    if (Date.now() - this.#lastMaintenance < 60_000) return;
    this.#lastMaintenance = Date.now();
    try {
      if (this.#hasCron === null) {
        const [{ cron }] = await this.#sql<{ cron: boolean }[]>`
          select exists (select from pg_extension where extname = 'pg_cron') as cron`;
        this.#hasCron = cron;
      }
      if (this.#hasCron) return;
      await asWorker(this.#sql, (tx) => tx`select plaudit.run_maintenance(), plaudit.run_delivery_maintenance()`);
    } catch (err) {
      this.#log({ level: 'error', msg: 'maintenance failed', error: (err as Error).message });
    }
    if (this.#hasCron) return;
    try {
      // Review-request reminders and expired idempotency keys (pg_cron runs it where loaded).
      await asWorker(this.#sql, (tx) => tx`select plaudit.run_review_request_maintenance()`);
    } catch (err) {
      this.#log({ level: 'error', msg: 'review request maintenance failed', error: (err as Error).message });
    }
  }
}
