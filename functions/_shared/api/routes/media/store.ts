// What an admitted upload becomes: its files made (core/media/), put in the storage, then its row
// added by plaudit.add_review_media. Files come first and the row last, so that no row ever
// names a missing file; whatever refuses or fails after the files are stored removes them again.
import type { Sql, Tx } from '../../../core/db/client.ts';
import { runAsPublic } from '../../../core/db/roles.ts';
import type { MediaConfig } from '../../../core/media/config.ts';
import { MediaRefusal, processImage } from '../../../core/media/process-image.ts';
import { sniff, videoIsWhole } from '../../../core/media/sniff.ts';
import { type MediaStorage, mediaStorage } from '../../../core/media/storage.ts';
import { ApiError } from '../../http/errors.ts';

/** Who may upload to which review, as the checks before reading the file found. */
export interface Admitted {
  reviewId: string;
  orgId: string;
  /** The upload token's hash, or null for the organization's own key (then `db` is its transaction). */
  tokenHash: Uint8Array | null;
  db: Tx | undefined;
}

interface StoredFile {
  key: string;
  bytes: Uint8Array;
  type: string;
}

type AddRow = { refusal: string | null; created: boolean | null; item: string | null };

/** The files an upload is stored as: an image and its thumbnail, or the video as sent. */
async function filesOf(bytes: Uint8Array, base: string, config: MediaConfig) {
  const kind = sniff(bytes);
  if (!kind) {
    throw new MediaRefusal(
      415,
      'file: must be a JPEG, PNG or WebP image or an MP4 or WebM video (judged by its content, not its name or type)',
    );
  }
  if (kind.type === 'video') {
    if (!videoIsWhole(bytes, kind.format)) {
      throw new MediaRefusal(422, `file: the ${kind.format.toUpperCase()} video is corrupt or cut off`);
    }
    return { kind, files: [{ key: `${base}.${kind.format}`, bytes, type: `video/${kind.format}` }] };
  }
  const made = await processImage(bytes, kind.format, config.decode);
  return {
    kind,
    made,
    files: [
      { key: `${base}.jpg`, bytes: made.image, type: 'image/jpeg' },
      { key: `${base}-thumb.jpg`, bytes: made.thumbnail, type: 'image/jpeg' },
    ] as StoredFile[],
  };
}

/** Puts the files; a storage that fails is the service's fault (503), never the uploader's. */
async function putAll(storage: MediaStorage, files: StoredFile[]) {
  try {
    for (const f of files) await storage.put(f.key, f.bytes, f.type);
  } catch {
    throw new ApiError(503, 'The media storage is unavailable; try again later');
  }
}

/** Stores the upload; answers its item, and whether it is new. Refusals throw (MediaRefusal, or the refusal's code). */
export async function storeUpload(
  sql: Sql,
  config: MediaConfig,
  admitted: Admitted,
  file: File,
): Promise<{ item: string; created: boolean }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const id = crypto.randomUUID();
  const { kind, made, files } = await filesOf(bytes, `${admitted.orgId}/${admitted.reviewId}/${id}`, config);
  const sha256 = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const storage = mediaStorage(config);
  const url = (key: string) => `${config.publicBase}/${key}`;
  const removeFiles = () => Promise.allSettled(files.map((f) => storage.delete(f.key)));
  let row: AddRow;
  try {
    await putAll(storage, files);
    const [main, thumbnail] = files;
    const build = (tx: Tx) =>
      tx<AddRow[]>`
        select * from plaudit.add_review_media(
          ${admitted.reviewId}, ${admitted.tokenHash}, ${id}, ${kind.type}, ${main.type}, ${main.key},
          ${thumbnail?.key ?? null}, ${url(main.key)}, ${thumbnail ? url(thumbnail.key) : null},
          ${made?.width ?? null}, ${made?.height ?? null}, ${main.bytes.length}, ${sha256})`;
    [row] = admitted.db ? await build(admitted.db) : await runAsPublic(sql, build, { onPrimary: true });
  } catch (err) {
    await removeFiles();
    throw err;
  }
  if (row.refusal || !row.created) await removeFiles();
  if (row.refusal) throw new Error(row.refusal);
  return { item: row.item!, created: row.created! };
}
