// The form of a reviewer's upload token: made here, kept by the database as its SHA-256 only
// (plaudit.media_upload_tokens), sent back in `X-Upload-Token` to add photos and videos. The
// submission route and the hosted form's thank-you page both issue one.
import { sha256 } from './format.ts';

const TOKEN_PATTERN = /^mu_[0-9A-Za-z_-]{43}$/;

/** A new random token and the hash the database keeps. */
export function newUploadToken(): { token: string; hash: Uint8Array } {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = `mu_${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
  return { token, hash: sha256(token) };
}

/** The hash of a token as sent, or null when it cannot be one. */
export function uploadTokenHash(token: string): Uint8Array | null {
  return TOKEN_PATTERN.test(token) ? sha256(token) : null;
}
