// A photo or video added to a review: by its reviewer, with the review's upload token, or by the
// organization, with a write key. Checked before the file is read (limits, access, room), then by
// content, processed (core/media/), stored, and only then recorded; a refusal stores nothing.
import { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Tx } from '../../../core/db/client.ts';
import { runAsPublic } from '../../../core/db/roles.ts';
import {
  MAX_FILE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_JPEG_SCANS,
  MAX_MEDIA_PER_REVIEW,
  mebibytes,
  STORED_LONGEST_SIDE,
  THUMBNAIL_LONGEST_SIDE,
} from '../../../core/media/limits.ts';
import { MediaBusy, MediaRefusal } from '../../../core/media/refusal.ts';
import type { PublicOrTenantEnv, TenantEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { errorResponseSpec, IdempotencyHeaders, json, Uuid } from '../../http/schemas.ts';
import { toHex } from '../../../core/bytes.ts';
import { clientIp, retryAfter, setRateLimitHeaders } from '../../middleware/rate-limit/index.ts';
import { sha256Hex } from '../../api-keys/format.ts';
import { publicRoute, router } from '../define.ts';
import { ReviewMedia } from '../reviews/shape.ts';
import { type Admitted, storeUpload } from './store.ts';
import { uploadTokenHash } from '../../api-keys/upload-token.ts';

/** The route's context: the upload admitted, and the tenant transaction when a credential called. */
interface UploadEnv extends PublicOrTenantEnv {
  Variables: PublicOrTenantEnv['Variables'] & { upload: Admitted };
}

const REFUSALS: Record<string, [401 | 403 | 404 | 422 | 429, string]> = {
  invalid_token: [401, 'X-Upload-Token: the upload token is unknown or has expired'],
  wrong_review: [403, 'X-Upload-Token: the upload token is for another review'],
  not_found: [404, 'Review not found'],
  too_many: [422, `file: a review may have at most ${MAX_MEDIA_PER_REVIEW} photos and videos`],
  review_rate_limited: [429, 'Too many uploads to this review; retry after the reset'],
  rate_limited: [429, 'Too many uploads from this address; retry after the reset'],
};

type CheckRow = { refusal: string | null; org_id: string | null; rate_remaining: number; rate_reset: string };

/**
 * The checks of plaudit.check_review_media_upload before the file is read: with the review's upload
 * token as the public, or else in the tenant's transaction that the credential opened
 * (publicRoute's `orCredential`).
 */
const admit: MiddlewareHandler<UploadEnv> = async (c, next) => {
  const token = c.req.header('x-upload-token');
  const tokenHash = token === undefined ? null : uploadTokenHash(token.trim());
  if (token !== undefined && !tokenHash) throw new ApiError(401, REFUSALS.invalid_token[1]);
  const { sql, config } = c.var;
  const reviewId = c.req.param('id') ?? '';
  if (!Uuid.safeParse(reviewId).success) throw new ApiError(400, 'id: must be a UUID');
  const limit = config.media.uploadsPerAddress;
  const build = (tx: Tx) =>
    tx<CheckRow[]>`
      select * from plaudit.check_review_media_upload(${reviewId}, ${tokenHash},
        ${`media:${sha256Hex(clientIp(c, config.trustProxy))}`}, ${limit}, ${config.media.uploadsPerReview})`;
  const db = c.var.db;
  const [row] = db ? await build(db) : await runAsPublic(sql, build, { onPrimary: true });
  const refused = row.refusal ? REFUSALS[row.refusal] : undefined;
  if (refused?.[0] === 429) {
    const decision = { limit, remaining: row.rate_remaining, reset: Number(row.rate_reset), allowed: false };
    setRateLimitHeaders(c, decision);
    c.header('Retry-After', retryAfter(decision));
  }
  if (refused) throw new ApiError(refused[0], refused[1]);
  if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(415, 'Content-Type: send the file as multipart/form-data, in the field `file`');
  }
  c.set('upload', { reviewId, orgId: row.org_id!, tokenHash, db });
  await next();
};

/**
 * An upload compared between calls by its review and its file's SHA-256: the multipart body's
 * boundary differs on every send, the file does not.
 */
async function fileAsSent(c: Context<TenantEnv>): Promise<string> {
  const file = (await c.req.formData()).get('file');
  const digest = file instanceof File
    ? toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer())))
    : '';
  return `${c.req.param('id')}\n${digest}`;
}

/** A side in pixels as the document says it: `2,048 px`. */
const pixels = (n: number) => `${n.toLocaleString('en-US')} px`;

const MediaFile = z.object({
  file: z.instanceof(File, { message: 'must be a file' }).openapi({
    type: 'string',
    format: 'binary',
    description: `A JPEG, PNG or WebP image (≤ ${mebibytes(MAX_FILE_BYTES.image)} MiB, ≤ ${
      MAX_IMAGE_PIXELS / 1e6
    } megapixels) or an MP4 or WebM video (≤ ${mebibytes(MAX_FILE_BYTES.video)} MiB).`,
  }),
}).openapi('MediaFile');

export const mediaUpload = router().openapi(
  publicRoute({
    method: 'post',
    path: '/reviews/{id}/media',
    operationId: 'reviews.uploadMedia',
    tags: ['Reviews'],
    summary: 'Add a photo or video to a review',
    description:
      `The file goes in the \`file\` field of a \`multipart/form-data\` body. Send the review's upload token (\`media_upload.token\` of the submission's answer) in \`X-Upload-Token\`, or use a key with scope \`write\` (or higher) of the review's organization. What a file is comes from its content, never its name or declared type. Images are stored re-encoded as JPEG with no metadata (no EXIF, no GPS), their longest side at most ${
        pixels(STORED_LONGEST_SIDE)
      }, with a thumbnail of at most ${
        pixels(THUMBNAIL_LONGEST_SIDE)
      }; videos are stored as sent. At most ${MAX_MEDIA_PER_REVIEW} a review. The same file again answers the item it made (200). Organizations with \`media_moderation: manual\` get new items hidden. Limited per client address (\`MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE\`) and per review. With a key, an \`Idempotency-Key\` makes a retry answer the first call's result (the same key with another file is 422).`,
    request: {
      params: z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' }, description: 'The review' }) }),
      body: { required: true, content: { 'multipart/form-data': { schema: MediaFile } } },
      headers: IdempotencyHeaders,
    },
    middleware: [admit],
    // The review's upload token, or else the organization's write key or a member's session (the
    // credential publicRoute adds), whose uploads honour an Idempotency-Key as every keyed POST does.
    security: [{ UploadToken: [] }],
    responses: {
      201: json(ReviewMedia, 'The stored photo or video'),
      200: json(ReviewMedia, 'The same file was stored before: its item'),
      400: errorResponseSpec('Malformed multipart body or id'),
      401: errorResponseSpec('No upload token or key, or an unknown or expired one'),
      403: errorResponseSpec("The token is another review's, or the key's scope is too low"),
      404: errorResponseSpec('No such review (for this key)'),
      413: errorResponseSpec('The file is too large (bytes, megapixels, or the memory its decoding would take)'),
      415: errorResponseSpec('Not multipart/form-data, or the file is not a JPEG, PNG, WebP, MP4 or WebM'),
      422: errorResponseSpec(
        `No file, a corrupt one, a JPEG of more than ${MAX_JPEG_SCANS} scans, an image that does not decode within the deadline, the review has ${MAX_MEDIA_PER_REVIEW} already, or an Idempotency-Key used for another file`,
      ),
      429: errorResponseSpec('Too many uploads from this address or to this review'),
      503: errorResponseSpec(
        'The media storage did not take the file, or too many images are waiting to be processed (with `Retry-After`); nothing was stored',
      ),
    },
  }, { orCredential: { scope: 'write', unlessHeader: 'x-upload-token', comparableBody: fileAsSent } }),
  async (c) => {
    const { file } = c.req.valid('form');
    const { upload } = c.var;
    if (file.size > MAX_FILE_BYTES.video) {
      throw new ApiError(413, `file: a file may be at most ${mebibytes(MAX_FILE_BYTES.video)} MiB`);
    }
    try {
      const stored = await storeUpload(c.var.sql, c.var.config.media, upload, file);
      return answerJsonText(c, jsonText<z.infer<typeof ReviewMedia>>(stored.item), stored.created ? 201 : 200);
    } catch (err) {
      if (err instanceof MediaRefusal) throw new ApiError(err.status, err.message);
      if (err instanceof MediaBusy) {
        c.header('Retry-After', String(err.retryAfterSeconds));
        throw new ApiError(503, err.message);
      }
      if (err instanceof Error && err.message in REFUSALS) {
        const [status, message] = REFUSALS[err.message];
        throw new ApiError(status, message);
      }
      throw err;
    }
  },
);
