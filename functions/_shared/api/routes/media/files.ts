// The files of local media storage, served by the API to the public: only while their item is
// visible on a public review (else 404), with the content type that was stored, never sniffed by
// the browser, and cached for good (a file's key never names other bytes). What the database
// answered is kept a few seconds (middleware/media-visibility), and the file is streamed from the
// storage as it is read, never held whole.
import { z } from '@hono/zod-openapi';
import { runAsPublic } from '../../../core/db/roles.ts';
import type { MediaConfig } from '../../../core/media/config.ts';
import { MEDIA_KEY, mediaStorage, type StoredFile } from '../../../core/media/storage.ts';
import { ApiError } from '../../http/errors.ts';
import { errorResponseSpec, Uuid } from '../../http/schemas.ts';
import { publicRoute, router } from '../define.ts';

const MediaFileParams = z.object({
  // Not `orgId`: this public path names no organization route, only where the file lies.
  org: Uuid.openapi({ param: { name: 'org', in: 'path' }, description: 'The organization' }),
  review: Uuid.openapi({ param: { name: 'review', in: 'path' }, description: 'The review' }),
  file: z.string().max(60).openapi({
    param: { name: 'file', in: 'path' },
    description: 'The file: `<media id>.jpg`, `<media id>-thumb.jpg`, `<media id>.mp4` or `<media id>.webm`',
    example: '0b7f3c1e-2a4d-4e6f-8a9b-1c2d3e4f5a6b.jpg',
  }),
});

const NOT_FOUND = 'Media not found';

async function openFile(config: MediaConfig, key: string): Promise<StoredFile | null> {
  try {
    return await mediaStorage(config).open(key);
  } catch {
    throw new ApiError(503, 'The media storage is unavailable; try again later');
  }
}

export const mediaFiles = router().openapi(
  publicRoute({
    method: 'get',
    path: '/public/media/{org}/{review}/{file}',
    operationId: 'public.mediaFile',
    tags: ['Public data'],
    summary: "A review's photo, thumbnail or video",
    description:
      "Public: no API key. The stored files (from the folder of `MEDIA_STORAGE=local`, or the bucket of `s3`), as the `url` and `thumbnail_url` of a review's media name them. A hidden item, or one of a review the public cannot see, answers 404. Cached for a year (`immutable`).",
    request: { params: MediaFileParams },
    responses: {
      200: {
        description: 'The file as stored',
        content: {
          'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) },
          'video/mp4': { schema: z.string().openapi({ format: 'binary' }) },
          'video/webm': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
      400: errorResponseSpec('Malformed path'),
      404: errorResponseSpec('No such file, or not public'),
      503: errorResponseSpec('The media storage is unavailable'),
    },
  }),
  async (c) => {
    const { org, review, file } = c.req.valid('param');
    const key = `${org}/${review}/${file}`;
    if (!MEDIA_KEY.test(key)) throw new ApiError(404, NOT_FOUND);
    const known = c.var.mediaVisibility;
    let type = known?.visible(key);
    if (!type) {
      const [row] = await runAsPublic(
        c.var.sql,
        (tx) => tx<{ type: string | null }[]>`select plaudit.public_media_file(${key}) as type`,
      );
      if (!row?.type) throw new ApiError(404, NOT_FOUND);
      type = row.type;
      known?.remember(key, type);
    }
    const stored = await openFile(c.var.config.media, key);
    if (!stored) throw new ApiError(404, NOT_FOUND);
    c.header('Content-Type', type);
    if (Number.isFinite(stored.size)) c.header('Content-Length', String(stored.size));
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    return c.body(stored.body, 200);
  },
);
