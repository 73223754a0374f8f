// Where the files of reviews' photos and videos are kept: a folder of this machine (local) or an
// S3-compatible bucket (s3.ts). Keys are made by the API only: `<org>/<review>/<media>[-thumb].<ext>`.
import type { MediaConfig } from './config.ts';
import { S3Storage } from './s3.ts';

export interface MediaStorage {
  /** Stores the bytes whole under the key, or not at all. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** The stored file as a stream and its length, or null when there is none: how it is served. */
  open(key: string): Promise<StoredFile | null>;
  /** Removes the file; a key with no file is no error. */
  delete(key: string): Promise<void>;
}

export interface StoredFile {
  body: ReadableStream<Uint8Array>;
  size: number;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The only keys there are: no other path ever reaches the disk or the bucket. */
export const MEDIA_KEY = new RegExp(`^${UUID}/${UUID}/${UUID}(-thumb\\.jpg|\\.jpg|\\.mp4|\\.webm)$`);

function checked(key: string): string {
  if (!MEDIA_KEY.test(key)) throw new Error('not a media key');
  return key;
}

/**
 * Files under a folder. A file is written under a temporary name beside its place and renamed
 * into it, so that an interrupted write never leaves half a file under the key.
 */
export class LocalStorage implements MediaStorage {
  constructor(private readonly dir: string) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const fs = await import('node:fs/promises');
    const path = `${this.dir}/${checked(key)}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    const part = `${path}.${crypto.randomUUID()}.part`;
    try {
      await fs.writeFile(part, bytes);
      await fs.rename(part, path);
    } catch (err) {
      await fs.rm(part, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    const fs = await import('node:fs/promises');
    try {
      const bytes = await fs.readFile(`${this.dir}/${checked(key)}`);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Under Deno, the open file's own stream: Deno.serve sends a file resource's bytes without
   * passing them through JavaScript. Elsewhere (Node, the unit tests), the bytes read whole.
   */
  async open(key: string): Promise<StoredFile | null> {
    const path = `${this.dir}/${checked(key)}`;
    const deno = (globalThis as { Deno?: typeof Deno }).Deno;
    if (!deno?.open) {
      const bytes = await this.get(key);
      return bytes && { body: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), size: bytes.byteLength };
    }
    let file: Deno.FsFile;
    try {
      file = await deno.open(path);
    } catch (err) {
      if (err instanceof deno.errors.NotFound) return null;
      throw err;
    }
    try {
      return { body: file.readable, size: (await file.stat()).size };
    } catch (err) {
      file.close();
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const fs = await import('node:fs/promises');
    await fs.rm(`${this.dir}/${checked(key)}`, { force: true });
  }
}

export function mediaStorage(config: MediaConfig): MediaStorage {
  return config.storage === 's3' && config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.dir);
}
