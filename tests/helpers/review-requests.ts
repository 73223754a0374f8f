// Helpers for review-request tests: forms, a worker that sends through the development mail
// capture (real SMTP), the captured messages, and signed provider events.
import { afterAll, expect, inject } from 'vitest';
import { smtpTransport } from '../../functions/_shared/core/email/transport.ts';
import { standardSignature } from '../../functions/_shared/core/webhooks/signing.ts';
import { createTenant, type Tenant } from './db.ts';
import { api } from './http.ts';
import { eventually } from './receiver.ts';
import { startWorker, type TestWorker } from './worker.ts';

export async function createForm(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'After purchase', ...body },
  });
  if (res.status !== 201) throw new Error(`form: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; submission_url: string };
}

/** A worker pinned to these organizations, sending over SMTP into the capture behind /_dev/mail. */
export function mailWorker(orgIds: string[]): Promise<TestWorker> {
  return startWorker(orgIds, {
    email: { transport: 'smtp', smtpUrl: inject('devMailSmtpUrl'), from: 'Plaudit <no-reply@plaudit.test>' },
  }, {
    emailTransport: smtpTransport(inject('devMailSmtpUrl')),
  });
}

export interface CapturedMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  received_at: string;
}

/** Captured messages whose recipient matches. */
export async function capturedMail(match: (to: string) => boolean): Promise<CapturedMail[]> {
  const res = await fetch(`${inject('apiUrl')}/_dev/mail/messages`);
  const { data } = await res.json() as { data: CapturedMail[] };
  return data.filter((m) => match(m.to));
}

export async function waitForMail(
  match: (to: string) => boolean,
  count: number,
  timeoutMs = 20_000,
): Promise<CapturedMail[]> {
  const deadline = Date.now() + timeoutMs;
  let found: CapturedMail[] = [];
  while (Date.now() < deadline) {
    found = await capturedMail(match);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`captured ${found.length} of ${count} messages`);
}

/** Sends a provider event as Resend does (Svix signature with the API's EMAIL_WEBHOOK_SECRET). */
export async function providerEvent(
  event: unknown,
  {
    id = `msg_${crypto.randomUUID()}`,
    secret = inject('emailWebhookSecret'),
    timestamp = Math.floor(Date.now() / 1000),
  } = {},
) {
  const body = JSON.stringify(event);
  const signature = await standardSignature(secret, id, timestamp, body);
  return api('POST', '/api/v1/email-events', {
    rawBody: body,
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(timestamp),
      'svix-signature': signature,
    },
  });
}

/** The first link in a text that matches. */
export function linkIn(text: string, pattern: RegExp): string {
  const m = text.match(/https?:\/\/[^\s<>"']+/g)?.find((u) => pattern.test(u));
  if (!m) throw new Error(`no link matching ${pattern} in:\n${text}`);
  return m;
}

/** Posts an HTML form (urlencoded), without following redirects. */
export async function postForm(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** The same path on the API under test (links carry PUBLIC_URL, which may differ in tests). */
export function local(url: string): string {
  const u = new URL(url);
  return `${inject('apiUrl')}${u.pathname}${u.search}`;
}

/** A tenant with a form and a mail worker of its own, its recipients' domain, and a matcher for its mail. */
export function tenantsWithMail() {
  const workers: TestWorker[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
  });
  return async function setup() {
    const t = await createTenant();
    const form = await createForm(t);
    const w = await mailWorker([t.org.id]);
    workers.push(w);
    const domain = `${t.org.slug}.example.com`;
    return { t, form, w, domain, to: (to: string) => to.endsWith(`@${domain}`) };
  };
}

export const requestsPath = (t: Tenant, rest = '') => `/api/v1/organizations/${t.org.id}/review-requests${rest}`;

/** One review request as the API answers it. */
export async function getRequest(t: Tenant, id: string) {
  const res = await api('GET', requestsPath(t, `/${id}`), { key: t.keys.read });
  expect(res.status).toBe(200);
  return res.body;
}

export async function waitForStatus(t: Tenant, id: string, status: string) {
  return await eventually(
    async () => {
      const r = await getRequest(t, id);
      return r.status === status && r;
    },
    15_000,
    `request ${id} ${status}`,
  );
}
