// Local development mail: a real SMTP server (smtp-server) on 127.0.0.1 that accepts every
// message and keeps it, in memory and in <data dir>/mail.jsonl, and a small HTTP server that
// lists them: GET /_dev/mail (a page for a person, links clickable), GET /_dev/mail/messages
// (JSON {"data":[{id,to,subject,text,html,received_at}]} newest first), GET /_dev/mail/:id (one
// message as its HTML), DELETE /_dev/mail/messages (forget them all). `npm start` runs it and
// the API, in development only, serves /_dev/* on its own port by forwarding here. Nothing of
// this exists in a deployed service.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

const KEEP = 500;

const escapeHtml = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const linkify = (s) => escapeHtml(s).replace(/https?:\/\/[^\s<>"']+/g, (u) => `<a href="${u}">${u}</a>`);

function page(messages) {
  const items = messages.map((m) => `
<article>
  <header><strong>${escapeHtml(m.subject)}</strong><br>
  <small>to ${escapeHtml(m.to.join(', '))} · from ${escapeHtml(m.from)} · ${escapeHtml(m.received_at)} ·
  ${m.html ? `<a href="/_dev/mail/${m.id}">view HTML</a>` : 'no HTML part'}</small></header>
  <pre>${linkify(m.text)}</pre>
</article>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Captured mail · Plaudit</title>
<meta http-equiv="refresh" content="10">
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1f2328}
article{border:1px solid #d0d7de;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font-size:14px}
small{color:#57606a}</style></head>
<body><h1>Captured mail</h1>
<p>Every e-mail the local service sends lands here instead of a mailbox. ${messages.length} message(s), newest first; the page refreshes itself.
JSON: <a href="/_dev/mail/messages">/_dev/mail/messages</a>.</p>
${items || '<p><em>Nothing yet.</em></p>'}
</body></html>
`;
}

/**
 * Starts the capture. `dataDir` (optional) keeps messages across restarts. Answers
 * { smtpUrl, httpUrl, messages(), close() }.
 * @param {{ dataDir?: string | null, smtpPort?: number, httpPort?: number, host?: string }} [options]
 */
export async function startDevMail({ dataDir = null, smtpPort = 0, httpPort = 0, host = '127.0.0.1' } = {}) {
  const file = dataDir ? path.join(dataDir, 'mail.jsonl') : null;
  let messages = [];
  if (file && fs.existsSync(file)) {
    messages = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return null;
        }
      }).filter(Boolean).slice(-KEEP);
  }
  const waiters = new Set();

  async function capture(raw, envelope) {
    const parsed = await PostalMime.parse(raw);
    const to = envelope.rcptTo.map((r) => r.address);
    const message = {
      id: randomUUID(),
      to,
      from: parsed.from?.address ?? envelope.mailFrom?.address ?? '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: parsed.html ?? '',
      message_id: parsed.messageId ?? null,
      received_at: new Date().toISOString(),
    };
    messages.push(message);
    if (messages.length > KEEP) messages = messages.slice(-KEEP);
    if (file) fs.appendFileSync(file, JSON.stringify(message) + '\n');
    for (const w of waiters) w();
    return message;
  }

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    banner: 'Plaudit development mail capture',
    size: 10 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        capture(Buffer.concat(chunks), session.envelope)
          .then(() => callback())
          .catch((err) => callback(err));
      });
    },
  });
  smtp.on('error', () => {});
  await new Promise((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(smtpPort, host, resolve);
  });

  const newestFirst = () => [...messages].reverse();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method === 'GET' && (url.pathname === '/_dev/mail' || url.pathname === '/_dev/mail/')) {
      return send(200, 'text/html; charset=utf-8', page(newestFirst()));
    }
    if (url.pathname === '/_dev/mail/messages') {
      if (req.method === 'DELETE') {
        messages = [];
        if (file) fs.writeFileSync(file, '');
        return send(204, 'text/plain', '');
      }
      if (req.method === 'GET') {
        const data = newestFirst().map(({ id, to, subject, text, html, received_at }) => ({
          id,
          to: to.join(', '),
          subject,
          text,
          html,
          received_at,
        }));
        return send(200, 'application/json; charset=utf-8', JSON.stringify({ data }));
      }
    }
    const one = /^\/_dev\/mail\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const m = messages.find((x) => x.id === one[1]);
      if (m) return send(200, 'text/html; charset=utf-8', m.html || `<pre>${linkify(m.text)}</pre>`);
    }
    send(
      404,
      'application/json',
      JSON.stringify({ statusCode: 404, message: `No route for ${req.method} ${url.pathname}`, error: 'Not Found' }),
    );
  });
  await new Promise((resolve) => server.listen(httpPort, host, resolve));

  return {
    smtpUrl: `smtp://${host}:${smtp.server.address().port}`,
    httpUrl: `http://${host}:${server.address().port}`,
    messages: () => newestFirst(),
    /** Resolves once at least `count` messages were captured. */
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(newestFirst());
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`captured ${messages.length} of ${count} messages`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      Promise.all([
        new Promise((r) => smtp.close(r)),
        new Promise((r) => {
          server.closeAllConnections?.();
          server.close(r);
        }),
      ]),
  };
}
