// The reviewer's upload token as the submission answers it (`media_upload`); the token's own form
// is api-keys/upload-token.ts.
import { z } from '@hono/zod-openapi';
import { Timestamp } from '../../http/schemas.ts';
import { MAX_FILE_BYTES, MAX_MEDIA_PER_REVIEW, mebibytes, UPLOAD_TOKEN_HOURS } from '../../../core/media/limits.ts';

export const MediaUpload = z.object({
  token: z.string().openapi({ description: 'Send it in the `X-Upload-Token` header of `POST /reviews/{id}/media`.' }),
  expires_at: Timestamp.openapi({
    description: `The token works for ${UPLOAD_TOKEN_HOURS} hours, for this review only.`,
  }),
  max_files: z.number().int().openapi({ description: 'How many photos and videos the review may have.' }),
  max_bytes: z.number().int().openapi({
    description: `The largest file taken, in bytes (a video; an image takes up to ${
      mebibytes(MAX_FILE_BYTES.image)
    } MB).`,
  }),
}).openapi('MediaUpload');

/**
 * The `media_upload` answer as JSON text. A bot's unstored review got no token: it is answered a
 * token all the same (that nothing accepts), so that the answer does not tell it apart.
 */
export function uploadGrant(token: string, expiresAt: Date | null): string {
  const expires = expiresAt ?? new Date(Date.now() + UPLOAD_TOKEN_HOURS * 3600_000);
  return JSON.stringify(
    {
      token,
      expires_at: expires.toISOString(),
      max_files: MAX_MEDIA_PER_REVIEW,
      max_bytes: MAX_FILE_BYTES.video,
    } satisfies z.infer<typeof MediaUpload>,
  );
}
