// E-mail: the outbox's messages are claimed ten at a time with a lease, rendered from their
// template and sent through the configured transport; each result is recorded, with a retry time
// unless the failure is permanent. One batch at a time: the next is claimed once it is sent.
import { asWorker } from '../../core/db/roles.ts';
import { renderEmail, UnknownTemplateError } from '../../core/email/templates.ts';
import { type EmailTransport, PermanentEmailError } from '../../core/email/transport.ts';
import { EMAIL_SCHEDULE_MS, nextRetryDelay } from '../../core/webhooks/retry.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

interface EmailRow {
  id: string;
  claim_token: string;
  org_id: string;
  org_name: string;
  to_address: string;
  template: string;
  locale: string;
  data: Record<string, unknown>;
  idempotency_key: string;
  attempt: number;
}

export class EmailLane {
  #ctx: LaneContext;
  #transport: EmailTransport | null;
  #inFlight = 0;
  /** Looked for when notified, on the poll timer, and again at once after a full batch. */
  #wanted = true;

  constructor(ctx: LaneContext, transport: EmailTransport | null) {
    this.#ctx = ctx;
    this.#transport = transport;
  }

  /** Without a transport messages stay queued. */
  get configured(): boolean {
    return this.#transport !== null;
  }

  /** There may be messages to send: the next claim looks. */
  want(): void {
    this.#wanted = true;
  }

  /** Claims a batch when one is wanted and none is being sent, and starts sending it; answers how many. */
  async claim(): Promise<number> {
    if (!this.#transport || this.#inFlight > 0 || !this.#wanted) return 0;
    this.#wanted = false;
    const { sql, config: c } = this.#ctx;
    const rows = await asWorker(sql, (tx) =>
      tx<EmailRow[]>`
        select * from plaudit.claim_emails(10, ${c.leaseSeconds},
          ${orgIdsLiteral(c.orgIds)}::uuid[])`);
    if (rows.length === 0) return 0;
    this.#wanted = true; // there may be more
    this.#inFlight = rows.length;
    this.#ctx.track(
      Promise.allSettled(rows.map((r) => this.#send(r))).then(() => {
        this.#inFlight = 0;
      }),
    );
    return rows.length;
  }

  async close(): Promise<void> {
    await this.#transport?.close?.();
  }

  async #send(row: EmailRow): Promise<void> {
    const { sql, config, log, stats } = this.#ctx;
    let sent = false;
    let providerId: string | null = null;
    let error: string | null = null;
    let permanent = false;
    try {
      const rendered = renderEmail(row.template, {
        locale: row.locale,
        orgName: row.org_name,
        data: row.data ?? {},
        publicUrl: config.publicUrl,
      });
      const result = await this.#transport!.send({
        ...rendered,
        from: config.email.from,
        to: row.to_address,
        idempotencyKey: row.idempotency_key,
      });
      sent = true;
      providerId = result.providerMessageId;
    } catch (err) {
      error = (err as Error).message;
      permanent = err instanceof PermanentEmailError || err instanceof UnknownTemplateError;
    }
    const retryIn = sent || permanent
      ? null
      : nextRetryDelay(EMAIL_SCHEDULE_MS, row.attempt, { scale: config.retryScale, random: this.#ctx.random });
    if (sent) stats.emailsSent += 1;
    else stats.emailFailures += 1;
    try {
      const [{ status }] = await asWorker(sql, (tx) =>
        tx<{ status: string }[]>`
          select plaudit.record_email_result(${row.id}, ${row.claim_token}, ${sent}, ${providerId},
                                             ${error}, ${retryIn}) as status`);
      log({
        level: sent ? 'info' : 'warn',
        msg: 'e-mail',
        email_id: row.id,
        template: row.template,
        attempt: row.attempt,
        outcome: status,
        error,
      });
    } catch (err) {
      log({ level: 'error', msg: 'could not record an e-mail', email_id: row.id, error: (err as Error).message });
    }
  }
}
