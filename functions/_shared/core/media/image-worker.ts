// A Web Worker that makes one image (make-image.ts) and answers it, or the refusal: the decoding
// runs on its own thread, which the API terminates when its deadline passes (off-thread.ts).
import { makeImage } from './make-image.ts';
import { MediaRefusal } from './refusal.ts';
import type { ImageFormat } from './sniff.ts';

/** What the worker is sent, and what it answers. */
export type ImageJob = { bytes: Uint8Array; format: ImageFormat };
export type ImageAnswer =
  | { ok: true; image: Uint8Array; thumbnail: Uint8Array; width: number; height: number }
  /** `reusable`: the codec failed cleanly (an error it threw, not a trap or exhausted memory): the worker may go on. */
  | { ok: false; status: 413 | 415 | 422; message: string; reusable: boolean };

interface WorkerScope {
  onmessage: ((e: MessageEvent<ImageJob>) => void) | null;
  postMessage(message: ImageAnswer, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;
// off-thread.ts imports this module too, so that a bundler (an Edge Function's) takes it along:
// only inside a worker does it answer messages.
const inWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';

if (inWorker) {
  scope.onmessage = async ({ data }) => {
    try {
      const made = await makeImage(data.bytes, data.format);
      scope.postMessage({ ok: true, ...made }, [made.image.buffer, made.thumbnail.buffer] as Transferable[]);
    } catch (err) {
      const refusal = err instanceof MediaRefusal
        ? err
        : new MediaRefusal(422, `file: the ${data.format.toUpperCase()} image is corrupt and does not decode`);
      // A WebAssembly trap may leave a codec's module in a broken state, and a RangeError is memory
      // that could not be had: that worker is not to make another image.
      const reusable = !(err instanceof WebAssembly.RuntimeError) && !(err instanceof RangeError);
      scope.postMessage({ ok: false, status: refusal.status, message: refusal.message, reusable });
    }
  };
}
