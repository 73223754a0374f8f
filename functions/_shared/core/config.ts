import { env } from './runtime.ts';
import { loadMediaConfig, type MediaConfig } from './media/config.ts';

export type Environment = 'development' | 'production';

export interface Config {
  /** Where the API connects: the plaudit_authenticator login role in production setups. */
  databaseUrl: string;
  /** Start of every link the service writes (e-mails, submission URLs, the widget script). */
  publicUrl: string;
  environment: Environment;
  rateLimitPerMinute: number;
  publicRateLimitPerMinute: number;
  submitRateLimitPerMinute: number;
  /** Events a shop connection may send a minute (per API instance); more answer 429, and the platform retries. */
  connectionEventsPerMinute: number;
  /** Sign-in (and sign-up) mails a client address may ask for a minute. */
  signInRateLimitPerMinute: number;
  /**
   * How many proxies in front of the API append to X-Forwarded-For; the client address is the
   * entry that many places from the right. 0: the socket's peer is the client.
   */
  trustProxy: number;
  /** Connections per pool: the primary's, and each read replica's. */
  databasePoolSize: number;
  /** Hot standbys of the database, as the API connects to them (docs/scaling.md, "Read replicas"). */
  replicaUrls: string[];
  /** A replica further behind the primary than this serves no read. */
  replicaMaxLagMs: number;
  /** Whether anyone may create an organization from the sign-in page (PLAUDIT_SIGN_UP=open). */
  signUp: boolean;
  /** Photos and videos of reviews: where they are stored, how often one may upload. */
  media: MediaConfig;
  /** Whether a review's language is told from its text at submission and import (REVIEW_LANGUAGES=off: never). */
  detectLanguages: boolean;
}

function positiveInt(name: string, fallback: number): number {
  const raw = env(name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

/** REVIEW_LANGUAGES: `detect` (the default) or `off`, for a shop whose reviews are all in one language. */
export function languageDetection(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'detect') return true;
  if (raw === 'off') return false;
  throw new Error('REVIEW_LANGUAGES must be detect or off');
}

/** A comma-separated list of database URLs (API_DATABASE_REPLICA_URLS), as a list. */
export function replicaUrls(list: string | undefined): string[] {
  return (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** TRUST_PROXY: `true` (one proxy), `false`, or a number of proxies; hosted Supabase has one. */
export function proxyHops(raw: string | undefined, hosted: boolean): number {
  if (raw === undefined || raw === '') return hosted ? 1 : 0;
  if (raw === 'true') return 1;
  if (raw === 'false') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10) {
    throw new Error('TRUST_PROXY must be true, false or a number of proxies (0–10)');
  }
  return n;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const port = env('PORT') ?? '54321';
  const hosted = env('SB_REGION') !== undefined;
  const databaseUrl = env('API_DATABASE_URL') ?? env('DATABASE_URL') ?? env('SUPABASE_DB_URL');
  if (!databaseUrl && !overrides.databaseUrl) {
    throw new Error('Set API_DATABASE_URL (or DATABASE_URL) to the database the API uses');
  }
  const publicUrl = (env('PUBLIC_URL') ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');
  return {
    databaseUrl: databaseUrl ?? '',
    publicUrl,
    environment: env('PLAUDIT_ENV') === 'development' ? 'development' : 'production',
    rateLimitPerMinute: positiveInt('RATE_LIMIT_PER_MINUTE', 600),
    publicRateLimitPerMinute: positiveInt('PUBLIC_RATE_LIMIT_PER_MINUTE', 600),
    submitRateLimitPerMinute: positiveInt('SUBMIT_RATE_LIMIT_PER_MINUTE', 20),
    connectionEventsPerMinute: positiveInt('CONNECTION_EVENTS_PER_MINUTE', 600),
    signInRateLimitPerMinute: positiveInt('SIGN_IN_RATE_LIMIT_PER_MINUTE', 10),
    trustProxy: proxyHops(env('TRUST_PROXY'), hosted),
    // An Edge Function's isolate is a process of its own, and there are many: Supabase's guidance
    // is one connection per invocation (docs/scaling.md, "Pools on Edge Functions").
    databasePoolSize: positiveInt('DATABASE_POOL_SIZE', hosted ? 1 : 10),
    replicaUrls: replicaUrls(env('API_DATABASE_REPLICA_URLS') ?? env('DATABASE_REPLICA_URLS')),
    replicaMaxLagMs: positiveInt('REPLICA_MAX_LAG_MS', 5000),
    signUp: env('PLAUDIT_SIGN_UP') === 'open',
    media: loadMediaConfig(publicUrl),
    detectLanguages: languageDetection(env('REVIEW_LANGUAGES')),
    ...overrides,
  };
}
