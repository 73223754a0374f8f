// Photos and videos on reviews: the upload, the stored files, and their moderation.
import { router } from '../define.ts';
import { mediaFiles } from './files.ts';
import { mediaModeration } from './moderation.ts';
import { mediaUpload } from './upload.ts';

export const media = router().route('/', mediaUpload).route('/', mediaFiles).route('/', mediaModeration);
