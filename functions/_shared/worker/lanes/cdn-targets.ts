// The CDNs a purge goes to, each optional (CdnConfig): Varnish with xkey (an HTTP PURGE naming the
// keys), Cloudflare (purge by cache tags) and Fastly (soft purge by surrogate keys). Each answers,
// per organization, whether its keys were purged, or why not and how long the CDN asked to wait.
// Tokens go in headers only: no error message quotes a request's headers.
import { parseRetryAfter } from '../../core/webhooks/retry.ts';
import type { CdnConfig } from '../config.ts';

/** An organization's purge: the keys its public answers carry. */
export interface OrgPurge {
  orgId: string;
  keys: string[];
}

export type PurgeOutcome = { ok: true } | { ok: false; error: string; retryAfterMs: number | null };

export interface PurgeTarget {
  name: string;
  /** One outcome per organization, in the order given. */
  purge(orgs: OrgPurge[]): Promise<PurgeOutcome[]>;
}

/** One call to a CDN takes this long at most. */
const CALL_TIMEOUT_MS = 10_000;

/** Cloudflare takes at most 100 tags in a purge request (cache/how-to/purge-cache, all plans). */
export const CLOUDFLARE_TAGS_PER_CALL = 100;
/** Fastly purges at most 256 surrogate keys in one batch request. */
export const FASTLY_KEYS_PER_CALL = 256;

/** The targets configured, in a fixed order. */
export function purgeTargets(cdn: CdnConfig): PurgeTarget[] {
  const targets: PurgeTarget[] = [];
  if (cdn.purgeUrl) targets.push(varnish(cdn.purgeUrl));
  if (cdn.cloudflare) targets.push(cloudflare(cdn.cloudflare));
  if (cdn.fastly) targets.push(fastly(cdn.fastly));
  return targets;
}

/** Varnish (xkey): one `PURGE` per organization, its keys in `Surrogate-Key`, side by side. */
function varnish(url: string): PurgeTarget {
  return {
    name: 'varnish',
    purge: (orgs) =>
      Promise.all(
        orgs.map((o) => call('varnish', url, { method: 'PURGE', headers: { 'Surrogate-Key': o.keys.join(' ') } })),
      ),
  };
}

/** Cloudflare: `POST /zones/{zone}/purge_cache` with `{"tags": [...]}`, organizations batched by 100 tags. */
function cloudflare({ zoneId, apiToken, apiUrl }: NonNullable<CdnConfig['cloudflare']>): PurgeTarget {
  const url = `${apiUrl}/zones/${encodeURIComponent(zoneId)}/purge_cache`;
  return {
    name: 'cloudflare',
    purge: (orgs) =>
      inBatches(orgs, CLOUDFLARE_TAGS_PER_CALL, (keys) =>
        call('cloudflare', url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ tags: keys }),
        })),
  };
}

/** Fastly: `POST /service/{id}/purge` with the keys in `Surrogate-Key`, soft (marked stale, not evicted). */
function fastly({ serviceId, apiToken, apiUrl }: NonNullable<CdnConfig['fastly']>): PurgeTarget {
  const url = `${apiUrl}/service/${encodeURIComponent(serviceId)}/purge`;
  return {
    name: 'fastly',
    purge: (orgs) =>
      inBatches(orgs, FASTLY_KEYS_PER_CALL, (keys) =>
        call('fastly', url, {
          method: 'POST',
          headers: { 'Fastly-Key': apiToken, 'Surrogate-Key': keys.join(' '), 'Fastly-Soft-Purge': '1' },
        })),
  };
}

/**
 * Packs whole organizations into calls of at most `limit` keys (one after the other, so that a
 * rate limit's 429 stops the rest), and gives each organization its call's outcome.
 */
async function inBatches(
  orgs: OrgPurge[],
  limit: number,
  send: (keys: string[]) => Promise<PurgeOutcome>,
): Promise<PurgeOutcome[]> {
  const batches: OrgPurge[][] = [];
  for (const o of orgs) {
    const last = batches.at(-1);
    const size = last?.reduce((n, x) => n + x.keys.length, 0) ?? limit;
    if (last && size + o.keys.length <= limit) last.push(o);
    else batches.push([o]);
  }
  const outcomes = new Map<OrgPurge, PurgeOutcome>();
  let limited: PurgeOutcome | null = null;
  for (const batch of batches) {
    // The sitemaps' key may come with several organizations: named once.
    const outcome: PurgeOutcome = limited ?? await send([...new Set(batch.flatMap((o) => o.keys))]);
    if (!outcome.ok && outcome.retryAfterMs !== null) limited = outcome;
    for (const o of batch) outcomes.set(o, outcome);
  }
  return orgs.map((o) => outcomes.get(o)!);
}

/** One request to a CDN: 2xx is done; otherwise the status (and Retry-After on 429 or 503). */
async function call(target: string, url: string, init: RequestInit): Promise<PurgeOutcome> {
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.ok) return { ok: true };
    const retryAfterMs = res.status === 429 || res.status === 503
      ? parseRetryAfter(res.headers.get('retry-after'))
      : null;
    return { ok: false, error: `${target}: HTTP ${res.status}`, retryAfterMs };
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
    return { ok: false, error: `${target}: ${reason}`, retryAfterMs: null };
  }
}
