import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDelivery, type SignedDelivery } from '../webhooks/send.ts';
import { pinnedPost } from './pinned-post.ts';

describe('pinnedPost', () => {
  let server: http.Server;
  let port: number;
  const seen: { host?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        if (req.url === '/big') return res.end('x'.repeat(5000));
        if (req.url === '/silent') return; // never answers
        res.writeHead(201, { 'retry-after': '7' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const post = (path: string, addresses: string[], timeoutMs = 2000) =>
    pinnedPost(new URL(`http://rebound.invalid:${port}${path}`), {
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
      timeoutMs,
      addresses,
      snippetBytes: 1024,
    });

  it('connects to the checked address, never to what the name resolves to now', async () => {
    const res = await post('/', ['127.0.0.1']);
    expect(res.status).toBe(201);
    expect(res.snippet).toBe('ok');
    expect(res.header('Retry-After')).toBe('7');
    // The name still travels in the Host header (and would be the TLS server name).
    expect(seen.at(-1)).toEqual({ host: `rebound.invalid:${port}`, body: 'hello' });
    // Without pinned addresses the name is looked up, and this one does not resolve.
    await expect(post('/', [])).rejects.toThrow(/ENOTFOUND|EAI_AGAIN|getaddrinfo|resolve/i);
  });

  it('pins the address under Deno too, the runtime the worker runs on', async () => {
    const root = fileURLToPath(new URL('../../../..', import.meta.url));
    const script = `
      import { pinnedPost } from './functions/_shared/core/net/pinned-post.ts';
      const res = await pinnedPost(new URL('http://rebound.invalid:${port}/'), {
        headers: {}, body: 'from deno', timeoutMs: 5000, addresses: ['127.0.0.1'], snippetBytes: 1024 });
      console.log(JSON.stringify({ status: res.status, snippet: res.snippet }));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        path.join(root, 'node_modules', '.bin', 'deno'),
        ['eval', script],
        { cwd: root, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } },
        (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout)),
      )
    );
    expect(JSON.parse(out)).toEqual({ status: 201, snippet: 'ok' });
    expect(seen.at(-1)).toEqual({ host: `rebound.invalid:${port}`, body: 'from deno' });
  });

  it('keeps only the first bytes of a long answer', async () => {
    const res = await post('/big', ['127.0.0.1']);
    expect(res.status).toBe(200);
    expect(res.snippet).toBe('x'.repeat(1024));
  });

  it('gives up after the timeout', async () => {
    await expect(post('/silent', ['127.0.0.1'], 200)).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'timed out after 200 ms',
    });
  });
});

describe('sendDelivery in production', () => {
  it('calls the address the SSRF check approved, not a fresh lookup of the name', async () => {
    const delivery = {
      id: 'd',
      claim_token: 't',
      org_id: 'o',
      endpoint_id: 'e',
      url: 'https://rebound.invalid/hook',
      event_type: 'review.created',
      message_id: 'msg_1',
      payload: '{}',
      attempt: 1,
      schedule_step: 0,
      is_test: false,
      webhook_timestamp: 1,
      signature_hex: 'ab',
      previous_signature_hex: null,
      webhook_signature: 'v1,x',
    } satisfies SignedDelivery;
    // The check sees a public address. A lookup of the name now would fail (it does not resolve
    // here); the attempt instead fails connecting to, or timing out on, the approved address.
    const result = await sendDelivery(delivery, {
      environment: 'production',
      timeoutMs: 300,
      resolve: async () => ['9.9.9.9'],
    });
    expect(result.outcome).toBe('retry');
    expect(result.statusCode).toBeNull();
    expect(result.error).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo|refused to call/i);
  });
});
