// Photos and videos on reviews: the upload, and the files of local storage.
import { router } from '../define.ts';
import { mediaFiles } from './files.ts';
import { mediaUpload } from './upload.ts';

export const media = router().route('/', mediaUpload).route('/', mediaFiles);
