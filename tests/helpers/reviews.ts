import { randomInt } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startApi } from '../../scripts/lib/api-server.mjs';
import { freePort } from '../../scripts/lib/postgres.mjs';
import { detectLanguage } from '../../functions/_shared/core/language/detect.ts';
import { db, type Tenant } from './db.ts';
import { api, type ApiResponse, type RequestOptions } from './http.ts';

/**
 * An API server of the test file's own, trusting X-Forwarded-For, so that each test submission
 * can come from an address of its own: the per-IP submission limit (20 a minute) then applies
 * only where a test means it to. Call at the top level of a test file.
 */
export function ownApiServer(env: Record<string, string> = {}) {
  const server: { url?: string; stop?: () => Promise<void> } = {};
  beforeAll(async () => {
    const started = await startApi({
      port: await freePort(),
      databaseUrl: process.env.TEST_API_DATABASE_URL,
      env: {
        PLAUDIT_ENV: 'development',
        TRUST_PROXY: 'true',
        // Uploaded photos go to the run's folder, never to the working tree's data directory.
        MEDIA_DIR: path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'media'),
        // The per-address upload limit counts in the shared database, where every file's uploads
        // from 127.0.0.1 meet in the same minute: out of the way unless a test sets its own.
        MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      stdio: 'ignore',
    });
    server.url = started.url;
    server.stop = started.stop;
  });
  afterAll(async () => {
    await server.stop?.();
  });
  return {
    call: <T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> =>
      api<T>(method, path, { ...opts, baseUrl: server.url }),
    get url() {
      return server.url!;
    },
  };
}

// Test files run in processes of their own and share the database's rate-limit buckets: each
// process starts at a random place of the 131,072 addresses, so that two files do not walk the
// same ones.
let ipCounter = randomInt(0, 1 << 17);
/** A fresh client address (198.18.0.0/15, the benchmarking range, never routed). */
export function freshIp() {
  ipCounter = (ipCounter + 1) % (1 << 17);
  return `198.${18 + ((ipCounter >> 16) & 1)}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export type Call = ReturnType<typeof ownApiServer>['call'];

export async function createForm(call: Call, t: Tenant, body: Record<string, unknown> = {}) {
  const res = await call('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Form', ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; verification_mode: string; submission_url: string };
}

let reviewCounter = 0;
export function reviewBody(formId: string, overrides: Record<string, unknown> = {}) {
  reviewCounter += 1;
  return {
    form_id: formId,
    rating: 5,
    title: 'Great',
    content: `Lovely mug, number ${reviewCounter} ${Math.random().toString(36).slice(2)}`,
    reviewer_name: 'Ada',
    reviewer_email: `ada${reviewCounter}@example.com`,
    ...overrides,
  };
}

/** Submits a review from a fresh address; expects 201 unless told otherwise. */
export async function submit(call: Call, formId: string, overrides: Record<string, unknown> = {}, ip = freshIp()) {
  return call('POST', '/api/v1/reviews', { body: reviewBody(formId, overrides), headers: { 'x-forwarded-for': ip } });
}

export async function submitOk(call: Call, formId: string, overrides: Record<string, unknown> = {}) {
  const res = await submit(call, formId, overrides);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as {
    id: string;
    verification_status: string;
    rating: number;
    created_at: string;
    language: string | null;
  };
}

/** A review to post: rating, title, text and the reviewer's name. */
export type ReviewSpec = readonly [number, string | null, string, string];

/**
 * Submits reviews to a form as fixtures, through plaudit.submit_review (the SQL the API's submission
 * runs, with the language the API tells) with a rate bucket of their own: pages under test then show them, and the shared test
 * server's per-address submission limit stays for the tests of submitting. Reviews of the product
 * of that external id when one is given. Answers their ids.
 */
export async function postReviews(
  formId: string,
  tag: string,
  reviews: readonly ReviewSpec[],
  productExternalId: string | null = null,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, [rating, title, content, name]] of reviews.entries()) {
    const review = {
      form_id: formId,
      rating,
      title,
      content,
      reviewer_name: name,
      reviewer_email: `r${i}-${tag}@example.com`,
      product_external_id: productExternalId,
      // Told as the API tells it (core/db/review-submission.ts).
      language: detectLanguage(title, content),
    };
    const [row] = await db`
      select id, error_message from plaudit.submit_review(
        jsonb_populate_record(null::plaudit.review_submission, ${db.json(review)}),
        ${`fixture:${tag}:${i}`}, 1000, 'http://127.0.0.1')`;
    expect(row.error_message, row.error_message).toBeNull();
    ids.push(row.id);
  }
  return ids;
}
