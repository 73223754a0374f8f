// E-mail transports: SMTP through nodemailer, or an HTTP provider with Resend's API
// (POST /emails with an Idempotency-Key header). Chosen by EMAIL_TRANSPORT; see docs/delivery.md.
import type { RenderedEmail } from './layout.ts';

export interface OutgoingEmail extends RenderedEmail {
  from: string;
  to: string;
  /** The outbox row's key: the provider (or the Message-ID, over SMTP) makes a repeat harmless. */
  idempotencyKey: string;
}

export interface SendResult {
  providerMessageId: string | null;
}

/** A send that cannot succeed by retrying (a refused address, a rejected API call). */
export class PermanentEmailError extends Error {}

export interface EmailTransport {
  name: string;
  send(message: OutgoingEmail): Promise<SendResult>;
  close?(): Promise<void> | void;
}

function messageIdDomain(from: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(from);
  return m ? m[1] : 'plaudit.invalid';
}

export function smtpTransport(smtpUrl: string): EmailTransport {
  let transporter: Promise<{ sendMail(m: unknown): Promise<{ messageId?: string }>; close(): void }> | undefined;
  const get = () =>
    transporter ??= import('nodemailer').then((mod) => {
      const nodemailer = (mod as unknown as { default?: typeof mod }).default ?? mod;
      return (nodemailer as unknown as { createTransport(url: string): any }).createTransport(smtpUrl);
    });
  return {
    name: 'smtp',
    async send(m) {
      const t = await get();
      try {
        const info = await t.sendMail({
          from: m.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          messageId: `<${m.idempotencyKey}@${messageIdDomain(m.from)}>`,
          headers: { ...m.headers, 'X-Idempotency-Key': m.idempotencyKey },
        });
        return { providerMessageId: info.messageId ?? null };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500 && code < 600) {
          throw new PermanentEmailError(`SMTP ${code}: ${(err as Error).message}`);
        }
        throw err;
      }
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}

/** The `name` of a Resend-style error body ({ statusCode, name, message }), if it has one. */
function errorName(body: string): string | undefined {
  try {
    const name = (JSON.parse(body) as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

export function resendTransport(
  apiKey: string,
  baseUrl = 'https://api.resend.com',
  fetchImpl: typeof fetch = fetch,
): EmailTransport {
  return {
    name: 'resend',
    async send(m) {
      const res = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}/emails`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': m.idempotencyKey,
        },
        body: JSON.stringify({
          from: m.from,
          to: [m.to],
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.headers && Object.keys(m.headers).length ? { headers: m.headers } : {}),
        }),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      if (!res.ok) {
        const message = `provider answered ${res.status}: ${text.slice(0, 300)}`;
        if (res.status === 409) {
          // 409 is about the idempotency key: `concurrent_idempotent_requests` (a request with the
          // same key is still in flight) is worth retrying; `invalid_idempotent_request` (the key
          // was used with a different body) can never succeed. Any other 409 is retried.
          if (errorName(text) === 'invalid_idempotent_request') throw new PermanentEmailError(message);
          throw new Error(message);
        }
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          throw new PermanentEmailError(message);
        }
        throw new Error(message);
      }
      let id: string | null = null;
      try {
        id = (JSON.parse(text) as { id?: string }).id ?? null;
      } catch { /* an answer without a body is still a success */ }
      return { providerMessageId: id };
    },
  };
}

export interface EmailConfig {
  transport: 'smtp' | 'resend' | 'none';
  smtpUrl?: string;
  resendApiKey?: string;
  resendApiUrl?: string;
  from: string;
}

export function createTransport(config: EmailConfig): EmailTransport | null {
  if (config.transport === 'smtp' && config.smtpUrl) return smtpTransport(config.smtpUrl);
  if (config.transport === 'resend' && config.resendApiKey) {
    return resendTransport(config.resendApiKey, config.resendApiUrl);
  }
  return null;
}
