// The worker: drains the webhook, e-mail, CDN purge and Shopify write-back outboxes and the shop
// connections' inbound events, kicks export generation, makes review summaries, and runs
// the scheduled maintenance where pg_cron is absent, one lane each (lanes/). This is the loop that
// runs them: woken by NOTIFY plaudit_outbox, by a send that finished, and by the poll timer.
// Runtime-neutral (Deno in production and with npm start, Node under vitest):
// functions/worker/index.ts wires it to the process.
import type { Sql } from '../core/db/client.ts';
import { createTransport, type EmailTransport } from '../core/email/transport.ts';
import { resolveHost } from '../core/net/dns.ts';
import type { Resolver } from '../core/net/ssrf.ts';
import { redact } from '../core/redact.ts';
import type { WorkerConfig } from './config.ts';
import type { Sleep } from './replicas.ts';
import { BurstLane } from './lanes/bursts.ts';
import { CdnPurgeLane } from './lanes/cdn-purge.ts';
import { ConnectionEventLane } from './lanes/connections.ts';
import { EmailLane } from './lanes/email.ts';
import { ExportLane } from './lanes/exports.ts';
import type { LaneContext, WorkerLog, WorkerStats } from './lanes/lane.ts';
import { MaintenanceLane } from './lanes/maintenance.ts';
import { ShopifyWriteBackLane } from './lanes/shopify-write-back.ts';
import { SummaryLane } from './lanes/summaries.ts';
import { WebhookLane } from './lanes/webhooks.ts';

export type { WorkerLog, WorkerStats };

export interface WorkerDeps {
  sql: Sql;
  config: WorkerConfig;
  log?: WorkerLog;
  resolve?: Resolver;
  random?: () => number;
  emailTransport?: EmailTransport | null;
  /** The clock a CDN purge waits on for the replicas; tests hold it. */
  replicaSleep?: Sleep;
  /** The clock the summaries' minute and the burst detection are told by; tests hold it. */
  now?: () => Date;
}

/** Exports are looked for this often without a notification. */
const EXPORT_POLL_MS = 5000;

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
  #inFlight = new Set<Promise<void>>();
  #webhooks: WebhookLane;
  #email: EmailLane;
  #exports: ExportLane;
  #maintenance: MaintenanceLane;
  #purges: CdnPurgeLane;
  #connections: ConnectionEventLane;
  #writeBacks: ShopifyWriteBackLane;
  #summaries: SummaryLane;
  #bursts: BurstLane;
  #running = false;
  #stopped = false;
  #wakeUp: (() => void) | null = null;
  #woken = false;
  #loop: Promise<void> | null = null;
  #unlisten: (() => Promise<void>) | null = null;

  constructor(deps: WorkerDeps) {
    this.#sql = deps.sql;
    this.#config = deps.config;
    this.#log = deps.log ?? defaultLog;
    const lane: LaneContext = {
      sql: deps.sql,
      config: deps.config,
      log: this.#log,
      stats: this.stats,
      random: deps.random ?? Math.random,
      inFlight: () => this.#inFlight.size,
      track: (send) => {
        const p: Promise<void> = send.finally(() => {
          this.#inFlight.delete(p);
          this.wake();
        });
        this.#inFlight.add(p);
      },
      stopping: () => this.#stopped,
    };
    this.#webhooks = new WebhookLane(lane, deps.resolve ?? resolveHost);
    this.#email = new EmailLane(
      lane,
      deps.emailTransport === undefined ? createTransport(deps.config.email) : deps.emailTransport,
    );
    this.#exports = new ExportLane(lane);
    this.#maintenance = new MaintenanceLane(lane);
    this.#purges = new CdnPurgeLane(lane, deps.replicaSleep);
    this.#connections = new ConnectionEventLane(lane);
    this.#writeBacks = new ShopifyWriteBackLane(lane);
    this.#summaries = new SummaryLane(lane, deps.now && (() => deps.now!().getTime()));
    this.#bursts = new BurstLane(lane, deps.now);
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
        if (payload === 'export' || payload === 'import') this.#exports.want();
        if (payload === 'email') this.#email.want();
        if (payload === 'purge') this.#purges.want();
        if (payload === 'connection') this.#connections.want();
        if (payload === 'write_back') this.#writeBacks.want();
        this.wake();
      });
      this.#unlisten = () => sub.unlisten();
    }
    if (!this.#email.configured && this.#config.email.transport !== 'none') {
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
      Promise.allSettled([...this.#inFlight, this.#exports.running, this.#summaries.running]),
      new Promise((r) => setTimeout(r, graceMs)),
    ]);
    await this.#unlisten?.().catch(() => {});
    await this.#email.close();
    await this.#purges.close();
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
          this.#email.want();
          this.#purges.want();
          this.#connections.want();
          this.#writeBacks.want();
          lastEmailPoll = Date.now();
        }
        progressed = await this.tick();
        if (Date.now() - lastExportPoll >= EXPORT_POLL_MS) {
          this.#exports.want();
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
    // Connection events first: the requests they make queue e-mails the e-mail lane then sends.
    const events = await this.#connections.claim();
    const [hooks, mails, purges, writeBacks] = await Promise.all([
      this.#webhooks.claim(),
      this.#email.claim(),
      this.#purges.claim(),
      this.#writeBacks.claim(),
    ]);
    this.#exports.kick();
    this.#summaries.kick();
    await this.#maintenance.run();
    // A burst's hold queues its mails and event: the next round sends them.
    const holds = await this.#bursts.run();
    return holds + hooks + mails + purges + events + writeBacks > 0;
  }

  /** Sends everything due now and waits for it: for the edge function and for tests. */
  async drain({ maxMs = 50_000 } = {}): Promise<void> {
    const deadline = Date.now() + maxMs;
    this.#exports.want();
    this.#email.want();
    this.#purges.want();
    this.#connections.want();
    this.#writeBacks.want();
    await this.#bursts.run({ force: true });
    while (Date.now() < deadline) {
      const claimed = await this.tick();
      if (!claimed && this.#inFlight.size === 0 && !this.#exports.running && !this.#summaries.running) break;
      if (!claimed) {
        await Promise.race([
          Promise.race([...this.#inFlight, this.#exports.running, this.#summaries.running].filter(Boolean)),
          new Promise((r) => setTimeout(r, 50)),
        ]);
      }
    }
    await Promise.allSettled([...this.#inFlight, this.#exports.running, this.#summaries.running]);
  }
}
