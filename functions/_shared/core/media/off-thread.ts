// Where an image is made: in a Web Worker, never on the API's event loop, so that a costly photo
// does not hold up every other request (/health included). The image workers are started by a
// relay worker (image-relay.ts), so that their start does not hold up the event loop either; an
// image's worker is terminated when its deadline passes or its codec traps, after a large image,
// and after 15 s without an image, which frees all its memory (WebAssembly's memory never shrinks
// while its module lives). At most `decodesAtOnce` images are made together, the rest wait their
// turn. Node (the unit tests) has no Web Worker: there the image is made in place.
// Imported for its place in the module graph (bundlers take the workers' modules along); it does
// nothing outside a worker.
import './image-relay.ts';
import type { RelayAnswer, RelayMessage } from './image-relay.ts';
import type { ImageAnswer } from './image-worker.ts';
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

/** A worker is kept only after an image whose decoding took at most this (decodeCost): a 16-megapixel photo. */
const KEEP_WORKER_UP_TO_BYTES = 64 * 1024 * 1024;

let relay: Worker | undefined;
let jobs = 0;
const pending = new Map<number, (answer: ImageAnswer) => void>();

/** The relay worker (image-relay.ts), started on first use: the only worker the event loop ever starts. */
function theRelay(): Worker {
  if (relay) return relay;
  const started = new Worker(new URL('./image-relay.ts', import.meta.url).href, { type: 'module' });
  started.onmessage = ({ data }: MessageEvent<RelayAnswer>) => {
    pending.get(data.id)?.(data.answer);
    pending.delete(data.id);
  };
  // The relay itself failing is no upload's fault: its jobs are answered, and the next starts another.
  started.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    started.terminate();
    if (relay === started) relay = undefined;
    for (const [id, answer] of pending) {
      answer({ ok: false, status: 422, message: 'file: the image does not decode', reusable: false });
      pending.delete(id);
    }
  };
  return relay = started;
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
  const id = ++jobs;
  const to = theRelay();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await new Promise<ImageAnswer>((resolve, reject) => {
      timer = setTimeout(() => {
        pending.delete(id);
        to.postMessage({ id, cancel: true } satisfies RelayMessage);
        reject(new MediaRefusal(422, `file: the image takes too long to decode (more than ${limits.timeoutMs} ms)`));
      }, limits.timeoutMs);
      pending.set(id, resolve);
      // The worker gets a copy, moved rather than copied again: the caller still needs its bytes.
      const copy = bytes.slice();
      // After a large image its worker goes at once: kept, it would hold that image's memory (its
      // codec's, and garbage its heap has not collected yet) for the next one.
      const message: RelayMessage = { id, job: { bytes: copy, format }, keep: cost <= KEEP_WORKER_UP_TO_BYTES };
      to.postMessage(message, [copy.buffer]);
    });
    if (!answer.ok) throw new MediaRefusal(answer.status, answer.message);
    return { image: answer.image, thumbnail: answer.thumbnail, width: answer.width, height: answer.height };
  } finally {
    clearTimeout(timer);
    done();
  }
}
