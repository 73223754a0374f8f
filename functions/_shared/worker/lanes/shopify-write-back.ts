// Shopify write-back: the outbox's rows (one pending per product and connection, written with the
// change of the product's published reviews) are claimed with a lease, read with the product's
// current figures (so a burst of reviews makes one call), packed per connection into calls of
// `metafieldsSet` of at most 25 metafields, and recorded: sent, retried on the webhooks' schedule
// (network errors, non-2xx, Shopify's throttling), or failed for good when Shopify refuses the
// metafields themselves. One batch at a time. Tokens go in headers only and are never logged.
import { asWorker } from '../../core/db/roles.ts';
import {
  adminGraphqlUrl,
  type ProductRating,
  PRODUCTS_PER_CALL,
  ratingsRequest,
  ratingValue,
  readAnswer,
  UnsafeShopError,
  type WriteBackOutcome,
} from '../../core/shopify/metafields.ts';
import { nextRetryDelay, parseRetryAfter, WEBHOOK_SCHEDULE_MS } from '../../core/webhooks/retry.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

/** Write-backs claimed at once at most. */
const BATCH = 120;

interface WriteBackRow {
  id: string;
  claim_token: string;
  org_id: string;
  connection_id: string;
  shop_domain: string | null;
  access_token: string | null;
  external_id: string;
  public_count: string;
  rating_sum: string;
  attempt: number;
}

/** A product of one call: its figures and the outbox rows it answers for. */
interface ClaimedProduct {
  rating: ProductRating;
  rows: WriteBackRow[];
}

export class ShopifyWriteBackLane {
  #ctx: LaneContext;
  #sending = false;
  #wanted = true;

  constructor(ctx: LaneContext) {
    this.#ctx = ctx;
  }

  want(): void {
    this.#wanted = true;
  }

  /** Claims a batch when one is wanted and none is being sent, and starts sending it; answers how many. */
  async claim(): Promise<number> {
    if (this.#sending || !this.#wanted) return 0;
    this.#wanted = false;
    const { sql, config: c } = this.#ctx;
    const rows = await asWorker(sql, (tx) =>
      tx<WriteBackRow[]>`
        select * from plaudit.claim_shopify_write_backs(${BATCH}, ${c.leaseSeconds}, ${
        orgIdsLiteral(c.orgIds)
      }::uuid[])`);
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

  async #send(rows: WriteBackRow[]): Promise<void> {
    // Connections side by side, each one's calls one after the other (a shop's rate limit is its own).
    await Promise.all([...byConnection(rows).values()].map(async (products) => {
      for (let i = 0; i < products.length; i += PRODUCTS_PER_CALL) {
        const call = products.slice(i, i + PRODUCTS_PER_CALL);
        await this.#record(call, await this.#call(call[0].rows[0], call));
      }
    }));
  }

  async #call(conn: WriteBackRow, products: ClaimedProduct[]): Promise<WriteBackOutcome> {
    let url: string;
    try {
      // Checked again at every call: settings are the tenant's, the token goes where the URL says.
      url = adminGraphqlUrl(conn.shop_domain, this.#ctx.config.shopifyApiUrl);
    } catch (err) {
      if (err instanceof UnsafeShopError) return { outcome: 'failed', error: err.message };
      throw err;
    }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Shopify-Access-Token': conn.access_token ?? '',
        },
        body: JSON.stringify(ratingsRequest(products.map((p) => p.rating))),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#ctx.config.webhookTimeoutMs),
      });
      const body = await res.text();
      if (res.ok) return readAnswer(body);
      return {
        outcome: 'retry',
        error: `Shopify answered ${res.status}`,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
      };
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
      return { outcome: 'retry', error: `Shopify ${reason}`, retryAfterMs: null };
    }
  }

  async #record(products: ClaimedProduct[], result: WriteBackOutcome): Promise<void> {
    const { sql, log, config } = this.#ctx;
    const first = products[0].rows[0];
    await Promise.all(products.map(async ({ rating, rows }) => {
      const attempt = Math.min(...rows.map((r) => r.attempt));
      const retryIn = result.outcome === 'retry'
        ? nextRetryDelay(WEBHOOK_SCHEDULE_MS, attempt, {
          scale: config.retryScale,
          random: this.#ctx.random,
          retryAfterMs: result.retryAfterMs,
        })
        : null;
      const error = result.outcome === 'sent' ? null : result.error;
      try {
        await asWorker(sql, (tx) =>
          tx`select plaudit.record_shopify_write_back(
               ${first.claim_token}, ${rows.map((r) => r.id)}::uuid[], ${result.outcome === 'sent'}, ${error},
               ${retryIn}, ${ratingValue(rating.count, rating.sum)}, ${rating.count})`);
      } catch (err) {
        // The lease runs out and the write-back is claimed again: at-least-once, and setting is idempotent.
        log({ level: 'error', msg: 'could not record a Shopify write-back', error: (err as Error).message });
      }
    }));
    log({
      level: result.outcome === 'sent' ? 'info' : result.outcome === 'retry' ? 'warn' : 'error',
      msg: 'shopify write-back',
      org_id: first.org_id,
      connection_id: first.connection_id,
      products: products.length,
      outcome: result.outcome,
      error: result.outcome === 'sent' ? null : result.error,
    });
  }
}

/** The claimed products of each connection, one entry per product however many of its rows came. */
function byConnection(rows: WriteBackRow[]): Map<string, ClaimedProduct[]> {
  const connections = new Map<string, Map<string, ClaimedProduct>>();
  for (const r of rows) {
    const products = connections.get(r.connection_id) ?? new Map<string, ClaimedProduct>();
    const p = products.get(r.external_id) ??
      { rating: { externalId: r.external_id, count: Number(r.public_count), sum: Number(r.rating_sum) }, rows: [] };
    p.rows.push(r);
    products.set(r.external_id, p);
    connections.set(r.connection_id, products);
  }
  return new Map([...connections].map(([id, products]) => [id, [...products.values()]]));
}
