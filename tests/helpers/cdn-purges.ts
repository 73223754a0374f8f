// What the CDN purge tests read: an organization's rows of the purge outbox, and the keys a
// purge request names, as a Varnish (or Fastly) stand-in received it.
import { expect } from 'vitest';
import { db, type Tenant } from './db.ts';
import { api } from './http.ts';
import { eventually, type ReceivedRequest } from './receiver.ts';

/** The organization's purges, oldest first. */
export async function purgeRows(orgId: string) {
  return await db<{ status: string; attempts: number; include_sitemap: boolean; last_error: string | null }[]>`
    select status, attempts, include_sitemap, last_error, claimed_lsn
      from plaudit.cdn_purges where org_id = ${orgId} order by created_at`;
}

/** Waits until every purge of the organization has gone out. */
export async function allPurgesSent(orgId: string, what = 'the purges sent'): Promise<void> {
  await eventually(async () => (await purgeRows(orgId)).every((p) => p.status === 'sent'), 20_000, what);
}

/** The keys a request names in its Surrogate-Key header. */
export const keysIn = (r: ReceivedRequest) => String(r.headers['surrogate-key'] ?? '').split(' ');

export const orgKey = (t: Tenant) => `org-${t.org.id}`;

/** Hides a review as a moderator with a key would. */
export async function hideReview(t: Tenant, reviewId: string, baseUrl?: string) {
  const res = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Spam' },
    baseUrl,
  });
  expect(res.status).toBe(200);
}
