import { type Environment, replicaUrls } from '../core/config.ts';
import type { EmailConfig } from '../core/email/transport.ts';
import { env } from '../core/runtime.ts';
import type { PhrasingConfig } from '../core/summaries/phrasing.ts';

/** Where the worker sends CDN purges: each target optional, every configured one used. */
export interface CdnConfig {
  /** Varnish (xkey): `PURGE <url>` with the keys in `Surrogate-Key`. */
  purgeUrl: string | null;
  cloudflare: { zoneId: string; apiToken: string; apiUrl: string } | null;
  fastly: { serviceId: string; apiToken: string; apiUrl: string } | null;
}

function loadCdnConfig(): CdnConfig {
  const zoneId = env('CLOUDFLARE_ZONE_ID');
  const cloudflareToken = env('CLOUDFLARE_API_TOKEN');
  const serviceId = env('FASTLY_SERVICE_ID');
  const fastlyToken = env('FASTLY_API_TOKEN');
  const base = (url: string) => url.replace(/\/+$/, '');
  return {
    purgeUrl: env('CDN_PURGE_URL') || null,
    cloudflare: zoneId && cloudflareToken
      ? {
        zoneId,
        apiToken: cloudflareToken,
        apiUrl: base(env('CLOUDFLARE_API_URL') || 'https://api.cloudflare.com/client/v4'),
      }
      : null,
    fastly: serviceId && fastlyToken
      ? { serviceId, apiToken: fastlyToken, apiUrl: base(env('FASTLY_API_URL') || 'https://api.fastly.com') }
      : null,
  };
}

export interface WorkerConfig {
  /** plaudit_authenticator's URL (the worker switches to plaudit_worker in each transaction). */
  databaseUrl: string;
  environment: Environment;
  publicUrl: string;
  /** Per-attempt limit for a webhook call, headers and response snippet included. */
  webhookTimeoutMs: number;
  /** Deliveries in flight to one endpoint at most, across all workers. */
  perEndpointConcurrency: number;
  /** Webhook calls in flight in this worker at most. */
  concurrency: number;
  /**
   * Webhook calls of one organization in flight in this worker at most, so one organization's
   * slow endpoints never take every slot: a quarter of `concurrency` by default, all of it for a
   * worker pinned to a single organization.
   */
  perOrgConcurrency: number;
  /**
   * Webhook calls in flight in this worker to suspects, endpoints that are slow or in a failure
   * run, at most: half of `concurrency` by default, so the rest stays free for the endpoints
   * that answer in time, whichever organizations the suspects belong to.
   */
  suspectConcurrency: number;
  /** An attempt this long or longer makes its endpoint slow; a faster one makes it fast again. */
  slowMs: number;
  batchSize: number;
  /** How long a claim holds a row; longer than the timeout, so only a dead worker loses it. */
  leaseSeconds: number;
  /** Poll interval when nothing wakes the worker (LISTEN/NOTIFY does, locally). */
  pollMs: number;
  /** Multiplies the retry schedules (not Retry-After); tests make retries quick with it. */
  retryScale: number;
  /** A failure run this long disables an endpoint. */
  disableAfterSeconds: number;
  /** Pins the worker to some organizations; all when empty. */
  orgIds: string[] | null;
  /** Milliseconds of export generation per kick. */
  exportBudgetMs: number;
  email: EmailConfig;
  /** Edge-function mode: a request must carry `Authorization: Bearer <workerSecret>`. */
  workerSecret: string | null;
  /** The CDNs purged when public answers change (none: purges wait, one per organization). */
  cdn: CdnConfig;
  /** The hot standbys a purge waits for, as the API reaches them (API_DATABASE_REPLICA_URLS). */
  replicaUrls: string[];
  /** A standby further behind than this serves no read, as the API has it (REPLICA_MAX_LAG_MS). */
  replicaMaxLagMs: number;
  /** How long a purge waits for the standbys that serve reads before taking the late ones out of them. */
  purgeReplicaWaitMs: number;
  /** Replaces `https://<shop_domain>` in the Shopify write-back's calls (SHOPIFY_API_URL); null: the shop itself. */
  shopifyApiUrl: string | null;
  /**
   * The OpenAI-compatible chat endpoint that phrases summaries' sentences (SUMMARY_LLM_URL, with
   * SUMMARY_LLM_MODEL and SUMMARY_LLM_API_KEY); null: summaries keep the reviews' own sentences.
   */
  summaryLlm: PhrasingConfig | null;
}

function num(name: string, fallback: number, { min = 0, integer = true } = {}): number {
  const raw = env(name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new Error(`${name} must be a ${integer ? 'whole ' : ''}number ≥ ${min}`);
  }
  return n;
}

export function loadWorkerConfig(overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  const databaseUrl = env('WORKER_DATABASE_URL') ?? env('API_DATABASE_URL') ?? env('DATABASE_URL') ??
    env('SUPABASE_DB_URL');
  if (!databaseUrl && !overrides.databaseUrl) {
    throw new Error('Set WORKER_DATABASE_URL (or DATABASE_URL) to the database the worker drains');
  }
  const webhookTimeoutMs = num('WEBHOOK_TIMEOUT_MS', 15_000, { min: 1 });
  const concurrency = overrides.concurrency ?? num('WORKER_CONCURRENCY', 64, { min: 1 });
  const transport =
    (env('EMAIL_TRANSPORT') ?? (env('RESEND_API_KEY') ? 'resend' : env('SMTP_URL') ? 'smtp' : 'none')) as EmailConfig[
      'transport'
    ];
  if (!['smtp', 'resend', 'none'].includes(transport)) throw new Error('EMAIL_TRANSPORT must be smtp, resend or none');
  const orgIds = (env('WORKER_ORG_IDS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const port = env('PORT') ?? '54321';
  return {
    databaseUrl: databaseUrl ?? '',
    environment: env('PLAUDIT_ENV') === 'development' ? 'development' : 'production',
    publicUrl: (env('PUBLIC_URL') ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    webhookTimeoutMs,
    perEndpointConcurrency: num('WEBHOOK_CONCURRENCY_PER_ENDPOINT', 4, { min: 1 }),
    concurrency,
    perOrgConcurrency: num(
      'WEBHOOK_CONCURRENCY_PER_ORG',
      (overrides.orgIds !== undefined ? overrides.orgIds : orgIds)?.length === 1
        ? concurrency
        : Math.max(1, Math.floor(concurrency / 4)),
      { min: 1 },
    ),
    suspectConcurrency: num('WEBHOOK_CONCURRENCY_SUSPECT', Math.max(1, Math.floor(concurrency / 2)), { min: 1 }),
    slowMs: num('WEBHOOK_SLOW_MS', Math.min(5000, webhookTimeoutMs), { min: 1 }),
    batchSize: num('WORKER_BATCH_SIZE', 50, { min: 1 }),
    leaseSeconds: num('WORKER_LEASE_SECONDS', Math.ceil(webhookTimeoutMs / 1000) + 45, { min: 1 }),
    pollMs: num('WORKER_POLL_MS', 1000, { min: 10 }),
    retryScale: num('WORKER_RETRY_SCALE', 1, { min: 0, integer: false }),
    disableAfterSeconds: num('WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 24 * 3600, { min: 1 }),
    orgIds: orgIds.length ? orgIds : null,
    exportBudgetMs: num('EXPORT_BUDGET_MS', 2000, { min: 10 }),
    email: {
      transport,
      smtpUrl: env('SMTP_URL'),
      resendApiKey: env('RESEND_API_KEY'),
      resendApiUrl: env('RESEND_API_URL'),
      from: env('EMAIL_FROM') ?? 'Plaudit <no-reply@plaudit.invalid>',
    },
    workerSecret: env('WORKER_SECRET') ?? null,
    cdn: loadCdnConfig(),
    replicaUrls: replicaUrls(env('API_DATABASE_REPLICA_URLS') ?? env('DATABASE_REPLICA_URLS')),
    replicaMaxLagMs: num('REPLICA_MAX_LAG_MS', 5000, { min: 1 }),
    purgeReplicaWaitMs: num('PURGE_REPLICA_WAIT_MS', 2000),
    shopifyApiUrl: env('SHOPIFY_API_URL') || null,
    summaryLlm: env('SUMMARY_LLM_URL')
      ? {
        url: env('SUMMARY_LLM_URL')!,
        model: env('SUMMARY_LLM_MODEL') || 'gpt-4o-mini',
        apiKey: env('SUMMARY_LLM_API_KEY') || null,
        timeoutMs: num('SUMMARY_LLM_TIMEOUT_MS', 30_000, { min: 1 }),
      }
      : null,
    ...overrides,
  };
}
