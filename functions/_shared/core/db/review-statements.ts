// What the public may learn of a hidden review: the ground of its latest statement of reasons
// (EU DSA Art. 17), for its address's 410, and nothing of the review itself.
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

export interface HiddenReviewGround {
  ground_type: 'policy' | 'law';
  ground: string;
  hidden_at: Date;
  /** Until when its author may appeal (plaudit.appeal_until). */
  appeal_until: Date;
}

/** The ground a hidden review of the slug was hidden on; null when it is not a hidden review there. */
export async function hiddenReviewGround(sql: Sql, slug: string, reviewId: string): Promise<HiddenReviewGround | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<HiddenReviewGround[]>`
      select ground_type, ground, hidden_at, appeal_until from plaudit.public_hidden_review_ground(${slug}, ${reviewId})`);
  return row ?? null;
}
