// Where an image is made: in a Web Worker, never on the API's event loop, so that a
// costly photo does not hold up every other request (/health included). The worker is terminated
// when the deadline passes or its codec traps, and after 15 s without an image, which frees
// all its memory (WebAssembly's memory never shrinks while its module lives); at most
// `decodesAtOnce` images are made together, the rest wait their turn. Node (the unit tests) has no
// Web Worker: there the image is made in place.
// Imported for its place in the module graph (bundlers take the worker's module along); it does
// nothing outside a worker.
import './image-worker.ts';
import type { ImageAnswer, ImageJob } from './image-worker.ts';
import { makeImage, type ProcessedImage } from './make-image.ts';
import { MediaBusy, MediaRefusal } from './refusal.ts';
import type { ImageFormat } from './sniff.ts';

export interface DecodeLimits {
  /** How long one image may take once its worker starts, in milliseconds (MEDIA_DECODE_TIMEOUT_MS). */
  timeoutMs: number;
  /** How many images are made at the same time (MEDIA_DECODES_AT_ONCE). */
  decodesAtOnce: number;
  /** How many may wait for their turn (MEDIA_DECODE_QUEUE); one more is refused (MediaBusy: 503). */
  queue: number;
}

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Waits for a free turn. The queue is bounded: each waiting upload holds its file (up to 15 MiB),
 * and one that would wait longer than its client does is better refused now.
 */
async function turn({ decodesAtOnce: limit, queue, timeoutMs }: DecodeLimits): Promise<() => void> {
  if (running >= limit && waiting.length >= queue) throw new MediaBusy(Math.max(1, Math.ceil(timeoutMs / 1000)));
  while (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/**
 * How long a worker that made an image waits for the next before it is terminated (and its memory
 * given back). Starting a worker holds the event loop up for 30 to 80 ms (Deno makes its isolate
 * before `new Worker` returns, then loads its modules): a burst of uploads reuses one.
 */
const IDLE_WORKER_MS = 15_000;
/** A worker is kept only after an image whose decoding took at most this (decodeCost): a 16-megapixel photo. */
const KEEP_WORKER_UP_TO_BYTES = 64 * 1024 * 1024;
const idle: { worker: Worker; timer: ReturnType<typeof setTimeout> }[] = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  return new Worker(new URL('./image-worker.ts', import.meta.url).href, { type: 'module' });
}

/** Keeps a worker whose image was made, for the next one; terminated when none comes in time. */
function keepWorker(worker: Worker) {
  const entry = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      worker.terminate();
    }, IDLE_WORKER_MS),
  };
  idle.push(entry);
}

/** Makes the image in a worker; refusals (and an image past its deadline) throw MediaRefusal. */
export async function makeImageOffThread(
  bytes: Uint8Array,
  format: ImageFormat,
  cost: number,
  limits: DecodeLimits,
): Promise<ProcessedImage> {
  if (typeof Worker === 'undefined') return await makeImage(bytes, format);
  const done = await turn(limits);
  const worker = takeWorker();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reusable = false;
  try {
    const answer = await new Promise<ImageAnswer>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(new MediaRefusal(422, `file: the image takes too long to decode (more than ${limits.timeoutMs} ms)`));
      }, limits.timeoutMs);
      worker.onmessage = (e: MessageEvent<ImageAnswer>) => resolve(e.data);
      // An error the worker did not catch (its memory exhausted, say) is this image's, never the API's.
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        reject(new MediaRefusal(422, `file: the ${format.toUpperCase()} image is corrupt and does not decode`));
      };
      // The worker gets a copy, moved rather than copied again: the caller still needs its bytes.
      const copy = bytes.slice();
      worker.postMessage({ bytes: copy, format } satisfies ImageJob, [copy.buffer]);
    });
    reusable = answer.ok || answer.reusable;
    if (!answer.ok) throw new MediaRefusal(answer.status, answer.message);
    return { image: answer.image, thumbnail: answer.thumbnail, width: answer.width, height: answer.height };
  } finally {
    clearTimeout(timer);
    // A worker past its deadline is stopped where it is, and so is one whose codec trapped or ran out
    // of memory; one that made its image, or refused it cleanly, is kept: a corrupt file does not
    // cost the event loop a new worker's start.
    // After a large image the worker goes too: its memory (the codec's, and garbage its heap has
    // not collected yet) is given back at once rather than held for the next image.
    if (reusable && cost <= KEEP_WORKER_UP_TO_BYTES) keepWorker(worker);
    else worker.terminate();
    done();
  }
}
