// What the database keeps of a review's verification: the e-mail queued for it, its provenance,
// its moderation trail and its review.verified events.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { db } from './db.ts';

export const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex');

export async function verificationEmail(reviewId: string) {
  const rows =
    await db`select to_address, template, locale, data from plaudit.email_outbox where data->>'review_id' = ${reviewId}`;
  expect(rows).toHaveLength(1);
  return rows[0] as {
    to_address: string;
    template: string;
    locale: string;
    data: { review_id: string; token: string; reviewer_name: string; verify_url: string };
  };
}

export async function provenance(id: string) {
  const [row] = await db`
    select verification_status, verification_method, verification_at, verification_key_id,
           verification_token_id, verification_order_hash, verification_reason
    from plaudit.reviews where id = ${id}`;
  return row;
}

export async function trail(id: string) {
  return db`select action, reason, actor from plaudit.moderation_trail where review_id = ${id} order by seq`;
}

export async function verifiedEvents(id: string) {
  const rows =
    await db`select data from plaudit.events where type = 'review.verified' and data->>'id' = ${id} order by created_at`;
  return rows.map((r) => r.data);
}
