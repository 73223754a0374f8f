// Photos and videos on reviews (after release 0.2.0): the reviewer's upload token issued with the
// submission, items added by that token and by the organization's key, and their moderation,
// which follows the profile's media_moderation (auto: shown at once; manual: held until shown).
import { randomUUID } from 'node:crypto';
import { expectAnswer, LINK_BASE, type Org, sha256, type Submitted, type Tx } from './context.ts';
import { type Forms, submitReview } from './reviews.ts';

type Kind = 'image' | 'video';

/**
 * Adds a stored file to a review as the upload route does: its checks, then the row for the files
 * it stored (an image with its thumbnail, or the video as sent). Without `token`, `tx` is the
 * organization's (its write key). Answers the item's id.
 */
export async function addMedia(tx: Tx, org: Org, reviewId: string, token: Buffer | null, kind: Kind) {
  const [check] = await tx<{ refusal: string | null }[]>`
    select refusal from plaudit.check_review_media_upload(${reviewId}, ${token},
      ${`media:${sha256(org.nextAddress()).toString('hex')}`}, 30, 10)`;
  expectAnswer('check_review_media_upload', check.refusal, null);
  const id = randomUUID();
  const base = `${org.id}/${reviewId}/${id}`;
  const url = (key: string | null) => key && `${LINK_BASE}/api/v1/public/media/${key}`;
  const video = kind === 'video';
  const [main, thumb] = video ? [`${base}.mp4`, null] : [`${base}.jpg`, `${base}-thumb.jpg`];
  const [added] = await tx<{ refusal: string | null; created: boolean }[]>`
    select refusal, created from plaudit.add_review_media(
      ${reviewId}, ${token}, ${id}, ${kind}, ${video ? 'video/mp4' : 'image/jpeg'}, ${main}, ${thumb},
      ${url(main)}, ${url(thumb)}, ${video ? null : 2048}, ${video ? null : 1536}, ${video ? 3_145_728 : 412_345},
      ${sha256(`${kind} ${id}`)})`;
  expectAnswer('add_review_media', added.refusal, null);
  return id;
}

/** Issues a review's upload token in the transaction that submits it, as the API does. */
export function issueUploadToken(token: Buffer) {
  return async (tx: Tx, review: Submitted) => {
    const [{ expires }] = await tx`select plaudit.issue_media_upload_token(${review.id}, ${token}) as expires`;
    expectAnswer('issue_media_upload_token', expires !== null, true);
  };
}

/** Hides or shows an item, as the dashboard's media moderation does. */
export async function moderateMedia(org: Org, reviewId: string, mediaId: string, action: string, reason: string) {
  await org.tenant((tx) =>
    tx`select plaudit.moderate_review_media(${reviewId}, ${mediaId}, ${action}, ${reason}, ${org.keyActor})`
  );
}

/**
 * A review sent with a photo and a video by its reviewer (the upload token of the submission),
 * a photo the business adds to another review with its key, and moderation: where media show at
 * once the business hides the video; where they are held it shows the photo.
 */
export async function fillMedia(org: Org, forms: Forms, businessPick: string) {
  if (!org.schema.has('review_media')) return;
  const token = sha256(`upload token of ${org.slug}`);
  const pia = await submitReview(
    org,
    forms.open,
    `pia@${org.domain}`,
    { content: 'With a photo of the mug, and a video of it pouring.', fields: { product: 'Mug' } },
    issueUploadToken(token),
  );
  const [photo, video] = await org.publicly(async (tx) => [
    await addMedia(tx, org, pia.id, token, 'image'),
    await addMedia(tx, org, pia.id, token, 'video'),
  ]);
  await org.tenant((tx) => addMedia(tx, org, businessPick, null, 'image'));
  if (org.mediaModeration === 'auto') await moderateMedia(org, pia.id, video, 'hide', "Shows a stranger's face");
  else await moderateMedia(org, pia.id, photo, 'unhide', 'Checked: the mug only');
}
