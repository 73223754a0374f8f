// Shoppers' signals on published reviews (after release 0.2.0): helpful votes (under the period's
// visitor-hash key the first vote makes) and reports, one resolved by the business.
import { createHash } from 'node:crypto';
import { expectAnswer, type Org } from './context.ts';
import type { Reviews } from './reviews.ts';

/** Who is asking, as the public routes tell a visitor apart: the address's bucket and its digest with the browser. */
function visitor(org: Org, kind: 'helpful' | 'report') {
  const address = org.nextAddress();
  const hex = createHash('sha256').update(address).digest('hex');
  const digest = createHash('sha256').update(`${address}\nMozilla/5.0 (upgrade test)`, 'utf8').digest();
  return { bucket: `${kind}:${hex}`, digest };
}

async function voteHelpful(org: Org, reviewId: string) {
  const { bucket, digest } = visitor(org, 'helpful');
  const [vote] = await org.publicly((tx) =>
    tx<{ published: boolean }[]>`
      select published from plaudit.vote_helpful(${bucket}, 600, ${org.slug}, ${reviewId}, ${digest})`
  );
  expectAnswer('vote_helpful', vote.published, true);
}

async function report(org: Org, reviewId: string, reason: string, details: string | null) {
  const { bucket, digest } = visitor(org, 'report');
  const [reported] = await org.publicly((tx) =>
    tx<{ published: boolean }[]>`
      select published from plaudit.report_review(${bucket}, 600, ${org.slug}, ${reviewId}, ${digest},
                                                   ${reason}, ${details})`
  );
  expectAnswer('report_review', reported.published, true);
}

/** Two votes on the answered review and one on the bought one; a report left open, one resolved. */
export async function fillSignals(org: Org, reviews: Reviews) {
  if (org.schema.has('review_votes')) {
    await voteHelpful(org, reviews.answered.id);
    await voteHelpful(org, reviews.answered.id);
    await voteHelpful(org, reviews.bought.id);
  }
  if (org.schema.has('review_reports')) {
    await report(org, reviews.bought.id, 'fake', 'The same words are on another shop.');
    await report(org, reviews.answered.id, 'personal_data', null);
    await resolveReport(org, reviews.answered.id, 'No personal data in it.');
  }
}

/** The business resolves the open report of a review, signed in as its owner. */
async function resolveReport(org: Org, reviewId: string, resolution: string) {
  const actor = `member:${org.ownerMemberId}`;
  await org.tenant(async (tx) => {
    const [open] = await tx<{ id: string }[]>`
      select id from plaudit.review_reports where review_id = ${reviewId} and status = 'open'`;
    const [{ id }] = await tx`select plaudit.resolve_review_report(${open.id}, ${resolution}, ${actor}) as id`;
    expectAnswer('resolve_review_report', id, open.id);
  }, actor);
}
