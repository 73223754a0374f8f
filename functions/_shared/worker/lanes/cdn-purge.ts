// CDN purges: the purge outbox's rows (one pending per organization, written with the public
// change they announce; one in flight per organization, which the claim enforces) are claimed up
// to 100 at a time with a lease, grouped by organization, held until the replicas that serve reads
// have replayed the change or left the reads (ReplicaGate), sent to every configured CDN
// (cdn-targets.ts) and recorded: sent when every CDN took it, else retried with backoff (at least
// the CDN's Retry-After) and given up after the schedule. One batch at a time.
import { asWorker } from '../../core/db/roles.ts';
import { nextRetryDelay } from '../../core/webhooks/retry.ts';
import { orgCacheKey, SITEMAP_CACHE_KEY } from '../../core/cache-keys.ts';
import { ReplicaGate, type Sleep } from '../replicas.ts';
import { type OrgPurge, type PurgeOutcome, type PurgeTarget, purgeTargets } from './cdn-targets.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

const S = 1000;
/** A purge is time-sensitive and cheap to repeat: 8 attempts over about 10 minutes. */
export const PURGE_SCHEDULE_MS = [0, 1 * S, 5 * S, 15 * S, 30 * S, 60 * S, 120 * S, 300 * S];

/** Purges claimed at once at most (organizations). */
const BATCH = 100;

interface PurgeRow {
  id: string;
  claim_token: string;
  org_id: string;
  include_sitemap: boolean;
  attempt: number;
  claimed_lsn: string;
}

export class CdnPurgeLane {
  #ctx: LaneContext;
  #targets: PurgeTarget[];
  /** The replicas a purge waits for, when there are any (and a CDN to purge). */
  #gate: ReplicaGate | null = null;
  #sending = false;
  /** Looked for when notified, on the poll timer, and again at once after a full batch. */
  #wanted = true;

  constructor(ctx: LaneContext, sleep?: Sleep) {
    this.#ctx = ctx;
    this.#targets = purgeTargets(ctx.config.cdn);
    const { replicaUrls, replicaMaxLagMs, purgeReplicaWaitMs } = ctx.config;
    if (this.configured && replicaUrls.length > 0) {
      this.#gate = new ReplicaGate(ctx.sql, {
        urls: replicaUrls,
        maxLagMs: replicaMaxLagMs,
        waitMs: purgeReplicaWaitMs,
        sleep,
      }, ctx.log).start();
    }
  }

  async close(): Promise<void> {
    await this.#gate?.stop();
  }

  /** Without a CDN, purges wait (one per organization at most). */
  get configured(): boolean {
    return this.#targets.length > 0;
  }

  want(): void {
    this.#wanted = true;
  }

  /** Claims a batch when one is wanted and none is being sent, and starts sending it; answers how many. */
  async claim(): Promise<number> {
    if (!this.configured || this.#sending || !this.#wanted) return 0;
    this.#wanted = false;
    const { sql, config: c } = this.#ctx;
    const rows = await asWorker(sql, (tx) =>
      tx<PurgeRow[]>`
        select id, claim_token, org_id, include_sitemap, attempt, claimed_lsn::text
          from plaudit.claim_cdn_purges(${BATCH}, ${c.leaseSeconds}, ${orgIdsLiteral(c.orgIds)}::uuid[])`);
    if (rows.length === 0) return 0;
    this.#wanted = true; // there may be more
    this.#sending = true;
    this.#ctx.track(
      this.#send(rows).finally(() => {
        this.#sending = false;
      }),
    );
    return rows.length;
  }

  async #send(rows: PurgeRow[]): Promise<void> {
    const orgs = byOrganization(rows);
    try {
      // Every row of a claim carries the same position: past the commit of every change it claimed.
      await this.#gate?.ready(rows[0].claimed_lsn);
    } catch (err) {
      // No purge before the replicas have the change or are out of the reads: tried again later.
      this.#ctx.log({
        level: 'error',
        msg: 'cdn purge could not wait for the replicas',
        error: (err as Error).message,
      });
      const outcome: PurgeOutcome = { ok: false, error: 'replicas: not confirmed', retryAfterMs: null };
      await Promise.all(orgs.map((o) => this.#record(o, [outcome])));
      return;
    }
    const outcomes = await Promise.all(this.#targets.map((t) => t.purge(orgs.map((o) => o.purge))));
    await Promise.all(orgs.map((o, i) => this.#record(o, outcomes.map((byOrg) => byOrg[i]))));
  }

  async #record(org: ClaimedOrg, outcomes: PurgeOutcome[]): Promise<void> {
    const { sql, log, config } = this.#ctx;
    const failures = outcomes.filter((o): o is Extract<PurgeOutcome, { ok: false }> => !o.ok);
    const sent = failures.length === 0;
    const error = sent ? null : failures.map((f) => f.error).join('; ');
    const retryAfterMs = Math.max(0, ...failures.map((f) => f.retryAfterMs ?? 0)) || null;
    const retryIn = sent ? null : nextRetryDelay(PURGE_SCHEDULE_MS, org.attempt, {
      scale: config.retryScale,
      random: this.#ctx.random,
      retryAfterMs,
    });
    try {
      const [{ status }] = await asWorker(sql, (tx) =>
        tx<{ status: string }[]>`
          select plaudit.record_cdn_purge(${org.claimToken}, ${org.purge.orgId}, ${sent}, ${error}, ${retryIn}) as status`);
      // The organization's id and the CDN's status only: no keys' owners' data, no tokens.
      log({
        level: sent ? 'info' : status === 'failed' ? 'error' : 'warn',
        msg: status === 'failed' ? 'cdn purge given up' : 'cdn purge',
        org_id: org.purge.orgId,
        attempt: org.attempt,
        outcome: status,
        error,
      });
    } catch (err) {
      log({
        level: 'error',
        msg: 'could not record a cdn purge',
        org_id: org.purge.orgId,
        error: (err as Error).message,
      });
    }
  }
}

interface ClaimedOrg {
  purge: OrgPurge;
  claimToken: string;
  attempt: number;
}

/** One purge per organization, whatever number of its rows the claim took (a pending one and a retry). */
function byOrganization(rows: PurgeRow[]): ClaimedOrg[] {
  const orgs = new Map<string, ClaimedOrg>();
  for (const r of rows) {
    const o = orgs.get(r.org_id) ??
      { purge: { orgId: r.org_id, keys: [orgCacheKey(r.org_id)] }, claimToken: r.claim_token, attempt: r.attempt };
    if (r.include_sitemap && !o.purge.keys.includes(SITEMAP_CACHE_KEY)) o.purge.keys.push(SITEMAP_CACHE_KEY);
    // The organization's purge is as fresh as its freshest row: a new change restarts the schedule.
    o.attempt = Math.min(o.attempt, r.attempt);
    orgs.set(r.org_id, o);
  }
  return [...orgs.values()];
}
