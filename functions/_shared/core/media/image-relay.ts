// A long-lived Web Worker that starts the image workers (image-worker.ts) and relays their jobs and
// answers: starting a worker blocks the thread that starts it for 30 to 80 ms (Deno makes the new
// isolate before `new Worker` returns), and this way that thread is this one, never the API's event
// loop. It keeps a worker for the next image after one it made or refused cleanly, when the image
// was small enough, for 15 s; it terminates one whose job is cancelled (its deadline passed).
import './image-worker.ts';
import type { ImageAnswer, ImageJob } from './image-worker.ts';

/** What the relay is sent: a job (`keep`: whether its worker may be kept after it), or a cancellation. */
export type RelayMessage = { id: number; job: ImageJob; keep: boolean } | { id: number; cancel: true };
export type RelayAnswer = { id: number; answer: ImageAnswer };

interface RelayScope {
  onmessage: ((e: MessageEvent<RelayMessage>) => void) | null;
  postMessage(message: RelayAnswer, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as RelayScope;
const inWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';

const IDLE_WORKER_MS = 15_000;
const idle: { worker: Worker; timer: ReturnType<typeof setTimeout> }[] = [];
const busy = new Map<number, Worker>();

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  return new Worker(new URL('./image-worker.ts', import.meta.url).href, { type: 'module' });
}

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

function run(id: number, job: ImageJob, keep: boolean) {
  const worker = takeWorker();
  busy.set(id, worker);
  const finish = (answer: ImageAnswer) => {
    if (busy.get(id) !== worker) return; // cancelled meanwhile
    busy.delete(id);
    // A trapped codec, or memory that could not be had, leaves a worker not to reuse.
    if (keep && (answer.ok || answer.reusable)) keepWorker(worker);
    else worker.terminate();
    const transfer = answer.ok ? [answer.image.buffer, answer.thumbnail.buffer] as Transferable[] : [];
    scope.postMessage({ id, answer }, transfer);
  };
  worker.onmessage = (e: MessageEvent<ImageAnswer>) => finish(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    finish({
      ok: false,
      status: 422,
      message: `file: the ${job.format.toUpperCase()} image is corrupt and does not decode`,
      reusable: false,
    });
  };
  worker.postMessage(job, [job.bytes.buffer]);
}

if (inWorker) {
  scope.onmessage = ({ data }) => {
    if ('cancel' in data) {
      busy.get(data.id)?.terminate();
      busy.delete(data.id);
    } else {
      run(data.id, data.job, data.keep);
    }
  };
}
