// Erasure on request (after release 0.2.0): a reviewer asked for a review, wrote it on the
// request's page with a photo, then asked the business to forget her address.
import { expectAnswer, type Org, requestToken, sha256 } from './context.ts';
import { addMedia, issueUploadToken } from './media.ts';
import { createRequests, submitRequested } from './review-requests.ts';
import type { Forms } from './reviews.ts';

/**
 * Her request, her review (with a photo where the release has media) and her e-mails go; the
 * review stays, anonymized (its words removed too where the organization was asked to), the
 * address suppressed as a hash, and the erasure recorded. Comes after the exports: an export
 * holding the address would be expired, its file deleted. Answers the address erased.
 */
export async function fillErasure(org: Org, forms: Forms): Promise<string[]> {
  if (!org.schema.has('privacy_erasures')) return [];
  const rita = `Rita.Reviewer@${org.domain}`;
  await createRequests(org, [{ email: rita, name: 'Rita', form_id: forms.open }]);
  const media = org.schema.has('review_media');
  const token = sha256(`upload token of Rita at ${org.slug}`);
  const review = await submitRequested(
    org,
    await requestToken(org.sql, rita),
    { name: 'Rita', email: rita, rating: 4, content: 'My kitchen, my mug, my name: all in the photo.' },
    media ? issueUploadToken(token) : undefined,
  );
  if (media) await org.publicly((tx) => addMedia(tx, org, review.id, token, 'image'));
  const [{ erased }] = await org.tenant((tx) =>
    tx`select plaudit.erase_reviewer(${rita}, ${org.redactOnErasure}, ${org.keyActor}) as erased`
  );
  // (What it says of media depends on the release: erasure removed them from a later one on.)
  expectAnswer('erase_reviewer', `${erased.reviews} ${erased.review_requests}`, '1 1');
  return [rita];
}
