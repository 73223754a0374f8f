// The e-mail outbox through real transports: an SMTP server (smtp-server) and a Resend-compatible
// HTTP API on 127.0.0.1, and the development capture behind /_dev/mail.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../../functions/_shared/api/app.ts';
import { loadConfig } from '../../../functions/_shared/core/config.ts';
import { renderEmail } from '../../../functions/_shared/core/email/templates.ts';
import { resendTransport, smtpTransport } from '../../../functions/_shared/core/email/transport.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { eventually } from '../../helpers/receiver.ts';
import { startWorker } from '../../helpers/worker.ts';
import { startDevMail } from '../../../scripts/lib/dev-mail.mjs';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function enqueue(t: Tenant, to: string, locale = 'en', template = 'review_verification') {
  const [{ id }] = await db`
    select plaudit.enqueue_email(${t.org.id}, ${to}, ${template}, ${
    db.json({
      review_id: '00000000-0000-4000-8000-0000000000aa',
      token: 'tok123',
      reviewer_name: 'Zoë <script>',
      verify_url: 'http://127.0.0.1:54321/verify?token=tok123&r=1',
    } as never)
  }, ${locale}) as id`;
  return id as string;
}

async function outboxRow(id: string) {
  const [row] = await db`select * from plaudit.email_outbox where id = ${id}`;
  return row;
}

describe('templates', () => {
  it('renders review_verification in English and German, text and HTML, escaping data', () => {
    const data = { reviewer_name: 'Ann <b>', verify_url: 'https://acme.example/v?t=1&x=2' };
    const en = renderEmail('review_verification', { locale: 'en', orgName: 'Acme & Co', data });
    expect(en.subject).toBe('Please confirm your review of Acme & Co');
    expect(en.text).toContain('https://acme.example/v?t=1&x=2');
    expect(en.html).toContain('href="https://acme.example/v?t=1&amp;x=2"');
    expect(en.html).toContain('Ann &lt;b&gt;');
    expect(en.html).not.toContain('<b>');
    const de = renderEmail('review_verification', { locale: 'de-DE', orgName: 'Acme', data });
    expect(de.subject).toBe('Bitte bestätigen Sie Ihre Bewertung von Acme');
    expect(de.html).toContain('lang="de"');
    expect(renderEmail('review_verification', { locale: 'fr', orgName: 'Acme', data }).subject).toMatch(
      /^Please confirm/,
    );
    const js = renderEmail('review_verification', {
      locale: 'en',
      orgName: 'A',
      data: { verify_url: 'javascript:alert(1)' },
    });
    expect(js.html).not.toContain('javascript:');
  });
});

describe('the worker sends e-mail', () => {
  it('over SMTP, with the idempotency key as Message-ID, into the capture served at /_dev/mail', async () => {
    const t = await createTenant();
    const w = await startWorker([t.org.id], {}, { emailTransport: smtpTransport(inject('devMailSmtpUrl')) });
    cleanups.push(() => w.stop());
    const to = `reviewer-${t.org.slug}@example.com`;
    const id = await enqueue(t, to, 'de');
    const sent = await eventually(
      async () => {
        const row = await outboxRow(id);
        return row.status === 'sent' && row;
      },
      10_000,
      'e-mail sent',
    );
    expect(sent).toMatchObject({ attempts: 1, last_error: null, sent_at: expect.any(Date) });
    expect(sent.provider_message_id).toBe(`<${sent.idempotency_key}@plaudit.invalid>`);

    const list = await fetch(`${inject('apiUrl')}/_dev/mail/messages`);
    expect(list.status).toBe(200);
    const { data } = await list.json();
    const mine = data.find((m: { to: string }) => m.to === to);
    expect(mine).toMatchObject({
      id: expect.any(String),
      subject: `Bitte bestätigen Sie Ihre Bewertung von ${t.org.name}`,
      text: expect.stringContaining('http://127.0.0.1:54321/verify?token=tok123&r=1'),
      html: expect.stringContaining('href="http://127.0.0.1:54321/verify?token=tok123&amp;r=1"'),
      received_at: expect.stringMatching(/Z$/),
    });
    expect(mine.html).toContain('Zoë &lt;script&gt;');
    expect(Date.parse(data[0].received_at)).toBeGreaterThanOrEqual(Date.parse(data[data.length - 1].received_at));
    const pageRes = await fetch(`${inject('apiUrl')}/_dev/mail`);
    expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
    const html = await pageRes.text();
    expect(html).toContain('<a href="http://127.0.0.1:54321/verify?token=tok123&amp;r=1">');
  });

  it('retries a transient failure and gives up on a permanent refusal', async () => {
    const t = await createTenant();
    let refuse = true;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _s, cb) {
        if (address.address.startsWith('bounce')) {
          return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
        }
        if (refuse) return cb(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        cb();
      },
      onData(stream, _s, cb) {
        stream.resume();
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => smtp.close(() => r(undefined))));
    const url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    const w = await startWorker([t.org.id], { retryScale: 0.01 }, { emailTransport: smtpTransport(url) });
    cleanups.push(() => w.stop());

    const bounced = await enqueue(t, 'bounce@example.com');
    const later = await enqueue(t, 'later@example.com');
    const failed = await eventually(
      async () => {
        const row = await outboxRow(bounced);
        return row.status === 'failed' && row;
      },
      10_000,
      'permanent failure',
    );
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/550/);
    const queued = await eventually(
      async () => {
        const row = await outboxRow(later);
        return row.status === 'queued' && row.attempts >= 1 && row;
      },
      10_000,
      'transient failure',
    );
    expect(queued.last_error).toMatch(/451|Try again/);
    refuse = false;
    await eventually(async () => (await outboxRow(later)).status === 'sent', 10_000, 'sent after retry');
  });

  it('through a Resend-compatible API with the Idempotency-Key header', async () => {
    const t = await createTenant();
    const seen: { headers: http.IncomingHttpHeaders; body: any }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `re_${seen.length}` }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => server.close(() => r(undefined))));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const w = await startWorker([t.org.id], {}, { emailTransport: resendTransport('re_test_key', base) });
    cleanups.push(() => w.stop());
    const id = await enqueue(t, 'api@example.com');
    const row = await eventually(
      async () => {
        const r = await outboxRow(id);
        return r.status === 'sent' && r;
      },
      10_000,
      'sent through the API',
    );
    expect(row.provider_message_id).toBe('re_1');
    expect(seen[0].headers.authorization).toBe('Bearer re_test_key');
    expect(seen[0].headers['idempotency-key']).toBe(row.idempotency_key);
    expect(seen[0].body).toMatchObject({
      to: ['api@example.com'],
      subject: expect.stringMatching(/confirm your review/),
      text: expect.any(String),
      html: expect.any(String),
    });
  });

  it('through a Resend-compatible API: retries a 409 for a request still in flight, fails a 409 for a reused key at once', async () => {
    const t = await createTenant();
    const calls: Record<string, number> = {};
    let inFlight = true;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const to: string = JSON.parse(body).to[0];
        calls[to] = (calls[to] ?? 0) + 1;
        const answer = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (to.startsWith('reused')) {
          return answer(409, {
            statusCode: 409,
            name: 'invalid_idempotent_request',
            message: 'Same idempotency key used with a different request payload.',
          });
        }
        if (inFlight) {
          return answer(409, {
            statusCode: 409,
            name: 'concurrent_idempotent_requests',
            message: 'Same idempotency key used while original request is still in progress.',
          });
        }
        answer(200, { id: `re_${to}` });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => server.close(() => r(undefined))));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const w = await startWorker([t.org.id], { retryScale: 0.01 }, {
      emailTransport: resendTransport('re_test_key', base),
    });
    cleanups.push(() => w.stop());

    const reused = await enqueue(t, 'reused@example.com');
    const concurrent = await enqueue(t, 'concurrent@example.com');
    const failed = await eventually(
      async () => {
        const row = await outboxRow(reused);
        return row.status === 'failed' && row;
      },
      10_000,
      'permanent failure on invalid_idempotent_request',
    );
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/409.*invalid_idempotent_request/);
    const queued = await eventually(
      async () => {
        const row = await outboxRow(concurrent);
        return row.status === 'queued' && row.attempts >= 1 && row;
      },
      10_000,
      'retry scheduled on concurrent_idempotent_requests',
    );
    expect(queued.last_error).toMatch(/409.*concurrent_idempotent_requests/);
    inFlight = false;
    const sent = await eventually(
      async () => {
        const row = await outboxRow(concurrent);
        return row.status === 'sent' && row;
      },
      10_000,
      'sent after the concurrent request finished',
    );
    expect(sent.provider_message_id).toBe('re_concurrent@example.com');
    expect(calls['concurrent@example.com']).toBeGreaterThanOrEqual(2);
    expect(calls['reused@example.com']).toBe(1);
  });

  it('fails an unknown template for good', async () => {
    const t = await createTenant();
    const w = await startWorker([t.org.id], {}, { emailTransport: smtpTransport(inject('devMailSmtpUrl')) });
    cleanups.push(() => w.stop());
    const id = await enqueue(t, 'x@example.com', 'en', 'no_such_template');
    const row = await eventually(async () => {
      const r = await outboxRow(id);
      return r.status === 'failed' && r;
    }, 10_000);
    expect(row.last_error).toMatch(/no e-mail template named no_such_template/);
  });
});

describe('development mail capture', () => {
  it('keeps messages across restarts in the data directory', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-mail-'));
    const first = await startDevMail({ dataDir: dir });
    const transport = smtpTransport(first.smtpUrl);
    await transport.send({
      from: 'a@example.com',
      to: 'b@example.com',
      subject: 'Hi',
      text: 'one https://x.example/a',
      html: '<p>one</p>',
      idempotencyKey: 'k1',
    });
    await transport.close?.();
    expect(first.messages()).toHaveLength(1);
    await first.close();
    const second = await startDevMail({ dataDir: dir });
    cleanups.push(() => second.close());
    expect(second.messages()[0]).toMatchObject({ subject: 'Hi', to: ['b@example.com'] });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not exist in a deployed service', async () => {
    process.env.DEV_MAIL_URL = 'http://127.0.0.1:9';
    try {
      const prod = createApp({
        sql: {} as never,
        config: loadConfig({ databaseUrl: 'postgres://x', environment: 'production' }),
        log: () => {},
      });
      expect((await prod.request('/_dev/mail')).status).toBe(404);
      expect((await prod.request('/_dev/mail/messages')).status).toBe(404);
      const dev = createApp({
        sql: {} as never,
        config: loadConfig({ databaseUrl: 'postgres://x', environment: 'development' }),
        log: () => {},
      });
      expect((await dev.request('/_dev/mail/messages')).status).toBe(503);
    } finally {
      delete process.env.DEV_MAIL_URL;
    }
  });
});
