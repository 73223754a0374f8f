// POSTs over a connection to addresses the caller has already checked, so that the host name is
// not looked up again between the check and the call: a DNS answer that changes in between (DNS
// rebinding) cannot turn a checked public host into a private one. TLS still verifies the
// certificate for the URL's host name, which is also the SNI and the Host header.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PinnedPostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Where to connect, in order of preference; empty: the URL's host as it is. */
  addresses: string[];
  /** How much of the answer's body to keep. */
  snippetBytes: number;
}

export interface PinnedAnswer {
  status: number;
  header(name: string): string | null;
  snippet: string;
}

export class PostTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** A lookup that answers the given addresses whatever the name. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, answers);
    else callback(null, answers[0].address, answers[0].family);
  }) as unknown as LookupFunction;
}

function decodeSnippet(chunks: Uint8Array[], max: number): string {
  // A character cut in two at the limit decodes as U+FFFD: drop it.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, max)).replace(/\uFFFD+$/, '');
}

export function pinnedPost(url: URL, opts: PinnedPostOptions): Promise<PinnedAnswer> {
  const client = url.protocol === 'https:' ? https : http;
  const body = new TextEncoder().encode(opts.body);
  return new Promise((resolve, reject) => {
    let timedOut = false;
    // deno-lint-ignore prefer-const -- set once the request exists (below); the handlers above clear it
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fail = (err: unknown) => {
      clearTimeout(timer);
      reject(timedOut ? new PostTimeoutError(`timed out after ${opts.timeoutMs} ms`) : err);
    };
    const req = client.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...opts.headers, 'content-length': String(body.length) },
      agent: false, // a connection of its own: never one made to an address checked for another call
      ...(opts.addresses.length ? { lookup: pinnedLookup(opts.addresses) } : {}),
    }, (res) => {
      const chunks: Uint8Array[] = [];
      let kept = 0;
      const done = () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        resolve({
          status,
          header: (name) => {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
          },
          snippet: decodeSnippet(chunks, opts.snippetBytes),
        });
      };
      res.on('data', (chunk: Uint8Array) => {
        if (kept >= opts.snippetBytes) return;
        chunks.push(chunk);
        kept += chunk.length;
        if (kept >= opts.snippetBytes) {
          done();
          res.destroy(); // the rest of the body is not wanted
        }
      });
      res.on('end', done);
      res.on('error', (err) => (kept >= opts.snippetBytes ? undefined : fail(err)));
      res.on('close', () => {
        if (!res.complete && kept < opts.snippetBytes) fail(new Error('the connection closed before the answer ended'));
      });
    });
    timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new PostTimeoutError(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
}
