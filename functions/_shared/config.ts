import { env } from './runtime.ts';

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
  /** Take the client address from X-Forwarded-For (behind a proxy that sets it). */
  trustProxy: boolean;
  databasePoolSize: number;
}

function positiveInt(name: string, fallback: number): number {
  const raw = env(name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const port = env('PORT') ?? '54321';
  const databaseUrl = env('API_DATABASE_URL') ?? env('DATABASE_URL') ?? env('SUPABASE_DB_URL');
  if (!databaseUrl && !overrides.databaseUrl) {
    throw new Error('Set API_DATABASE_URL (or DATABASE_URL) to the database the API uses');
  }
  return {
    databaseUrl: databaseUrl ?? '',
    publicUrl: (env('PUBLIC_URL') ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    environment: env('PLAUDIT_ENV') === 'development' ? 'development' : 'production',
    rateLimitPerMinute: positiveInt('RATE_LIMIT_PER_MINUTE', 600),
    publicRateLimitPerMinute: positiveInt('PUBLIC_RATE_LIMIT_PER_MINUTE', 600),
    submitRateLimitPerMinute: positiveInt('SUBMIT_RATE_LIMIT_PER_MINUTE', 20),
    trustProxy: env('TRUST_PROXY') === 'true' || env('SB_REGION') !== undefined,
    databasePoolSize: positiveInt('DATABASE_POOL_SIZE', 10),
    ...overrides,
  };
}
