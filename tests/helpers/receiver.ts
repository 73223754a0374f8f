// A real webhook receiver on 127.0.0.1: records every request and answers as the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (a slow endpoint). */
  delayMs?: number;
  /** Answer once this settles: the test holds the request in flight for as long as it needs. */
  until?: Promise<unknown>;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each answer; 200 by default. */
  respond: (req: ReceivedRequest, index: number) => Answer;
  waitFor(count: number, timeoutMs?: number, filter?: (r: ReceivedRequest) => boolean): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Receiver['respond'] = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const receiver = { respond } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = requests.length;
      requests.push(r);
      const a = receiver.respond(r, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, a.headers ?? { 'content-type': 'text/plain' });
        res.end(a.body ?? 'ok');
      };
      if (a.until) void a.until.finally(send);
      else if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.requests = requests;
  receiver.waitFor = async (count, timeoutMs = 10_000, filter = () => true) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const matching = requests.filter(filter);
      if (matching.length >= count) return matching;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`receiver got ${requests.filter(filter).length} of ${count} requests within ${timeoutMs} ms`);
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

/** Polls `check` until it answers a truthy value. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
