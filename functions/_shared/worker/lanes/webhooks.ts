// Webhooks: deliveries are claimed in batches with a lease (FOR UPDATE SKIP LOCKED) and sent
// concurrently; each result is recorded as soon as it arrives, and the freed slot is refilled at
// once, so a slow endpoint holds at most its per-endpoint share of slots and never the batch.
// One organization holds at most `perOrgConcurrency` of this worker's slots, an endpoint in a
// failure run one, and suspects (endpoints that are slow or failing) together at most
// `suspectConcurrency` (the claim enforces all three), so slow or dead endpoints, of however many
// organizations, always leave slots to the endpoints that answer in time.
import { asWorker } from '../../core/db/roles.ts';
import type { Resolver } from '../../core/net/ssrf.ts';
import { nextRetryDelay, WEBHOOK_SCHEDULE_MS } from '../../core/webhooks/retry.ts';
import { type AttemptResult, sendDelivery, type SignedDelivery } from '../../core/webhooks/send.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

export class WebhookLane {
  #ctx: LaneContext;
  #resolve: Resolver;
  /** Webhook calls in flight per organization, for the claim's organization cap. */
  #orgInFlight = new Map<string, number>();
  /** Webhook calls in flight to slow or failing endpoints, for the claim's share of suspects. */
  #suspectsInFlight = 0;

  constructor(ctx: LaneContext, resolve: Resolver) {
    this.#ctx = ctx;
    this.#resolve = resolve;
  }

  /** Claims as many deliveries as there are free slots and starts sending them; answers how many. */
  async claim(): Promise<number> {
    const { sql, config: c } = this.#ctx;
    const room = c.concurrency - this.#ctx.inFlight();
    if (room <= 0) return 0;
    const orgBusy = JSON.stringify(Object.fromEntries(this.#orgInFlight));
    const suspectRoom = Math.max(0, c.suspectConcurrency - this.#suspectsInFlight);
    const rows = await asWorker(sql, (tx) =>
      tx<(SignedDelivery & { suspect: boolean })[]>`
        select * from plaudit.claim_webhook_deliveries(
          p_limit => ${Math.min(room, c.batchSize)}, p_lease_seconds => ${c.leaseSeconds},
          p_per_endpoint => ${c.perEndpointConcurrency}, p_org_ids => ${orgIdsLiteral(c.orgIds)}::uuid[],
          p_per_org => ${c.perOrgConcurrency}::integer, p_org_busy => ${orgBusy}::text::jsonb,
          p_suspect_room => ${suspectRoom}::integer)`);
    for (const row of rows) {
      this.#orgInFlight.set(row.org_id, (this.#orgInFlight.get(row.org_id) ?? 0) + 1);
      if (row.suspect) this.#suspectsInFlight += 1;
      this.#ctx.track(
        this.#deliver(row).finally(() => {
          const n = (this.#orgInFlight.get(row.org_id) ?? 1) - 1;
          if (n > 0) this.#orgInFlight.set(row.org_id, n);
          else this.#orgInFlight.delete(row.org_id);
          if (row.suspect) this.#suspectsInFlight -= 1;
        }),
      );
    }
    return rows.length;
  }

  async #deliver(d: SignedDelivery): Promise<void> {
    const { sql, config, log, stats } = this.#ctx;
    let result: AttemptResult;
    try {
      result = await sendDelivery(d, {
        environment: config.environment,
        timeoutMs: config.webhookTimeoutMs,
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
    stats.webhookAttempts += 1;
    if (result.outcome === 'succeeded') stats.webhookSucceeded += 1;
    const retryIn = result.outcome === 'retry'
      ? nextRetryDelay(WEBHOOK_SCHEDULE_MS, d.schedule_step, {
        scale: config.retryScale,
        random: this.#ctx.random,
        retryAfterMs: result.retryAfterMs,
      })
      : null;
    try {
      const [{ status }] = await asWorker(sql, (tx) =>
        tx<{ status: string | null }[]>`
          select plaudit.record_webhook_attempt(
            p_delivery_id => ${d.id}, p_claim_token => ${d.claim_token}, p_status_code => ${result.statusCode},
            p_duration_ms => ${result.durationMs}, p_error => ${result.error},
            p_response_snippet => ${result.responseSnippet}, p_outcome => ${result.outcome},
            p_retry_in_ms => ${retryIn}, p_disable_after_seconds => ${config.disableAfterSeconds},
            p_slow_ms => ${config.slowMs}
          ) as status`);
      log({
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
      log({
        level: 'error',
        msg: 'could not record a webhook attempt',
        delivery_id: d.id,
        error: (err as Error).message,
      });
    }
  }
}
