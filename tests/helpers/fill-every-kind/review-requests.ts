// Review requests through their lifecycle: settings with reminders, a suppressed address, and
// requests that end up completed (by the review it asked for), clicked and reminded, unsubscribed,
// failed, bounced and waiting; the worker's sends and the mail provider's events.
import {
  accepted,
  expectAnswer,
  LINK_BASE,
  newestMail,
  type Org,
  requestToken,
  type Submitted,
  type Tx,
} from './context.ts';
import type { Forms } from './reviews.ts';
import { takesIncentives } from './reviews.ts';

/** A request row as POST …/review-requests takes it. */
export type RequestRow = Record<string, unknown> & { email: string };

/** Creates requests as the API does; throws when one is refused. Answers their ids in order. */
export async function createRequests(org: Org, rows: RequestRow[]): Promise<string[]> {
  const indexed = rows.map((row, index) => ({ index, ...row }));
  const made = await org.tenant((tx) =>
    tx<{ idx: number; id: string | null; error: string | null }[]>`
      select idx, id, error from plaudit.create_review_requests(${tx.json(indexed as never)}, ${LINK_BASE})`
  );
  const refused = made.filter((r) => r.error !== null);
  if (refused.length > 0) throw new Error(`create_review_requests: ${JSON.stringify(refused)}`);
  return made.sort((a, b) => a.idx - b.idx).map((r) => r.id!);
}

/**
 * A review written on a request's page (product: one the request names, on releases that have
 * them); `extra` runs in its transaction, as the thank-you page issues the upload token there.
 */
export async function submitRequested(
  org: Org,
  token: string,
  reviewer: { name: string; email: string; rating: number; content: string; product?: string },
  extra?: (tx: Tx, review: Submitted) => Promise<unknown>,
): Promise<Submitted> {
  const address = org.nextAddress();
  return await org.publicly(async (tx) => {
    const product = reviewer.product ? tx`, ${reviewer.product}` : tx``;
    const r = accepted(
      'submit_requested_review',
      await tx<Submitted[]>`
        select * from plaudit.submit_requested_review(
          ${token}, ${`ip:${address}`}, 1000, ${reviewer.rating}, null, ${reviewer.content}, ${reviewer.name},
          ${reviewer.email}, ${tx.json({ product: 'Mug' })}, null, ${LINK_BASE}, false ${product})`,
    );
    await extra?.(tx, r);
    return r;
  });
}

export async function fillReviewRequests(org: Org, forms: Forms) {
  const at = (name: string) => `${name}@${org.domain}`;
  await org.tenant(async (tx) => {
    await tx`insert into plaudit.review_request_settings ${
      tx({ org_id: org.id, daily_quota: 500, reminders_enabled: true, reminder_delay_days: 3, reminder_max: 2 })
    }`;
    await tx`insert into plaudit.email_suppressions (org_id, email, reason) values (${org.id}, ${
      at('blocked')
    }, 'manual')`;
  });
  const gift = takesIncentives(org, 'review_requests')
    ? { incentive: { type: 'gift', description: 'A sample of our winter tea' } }
    : {};
  await createRequests(org, [
    { email: at('invitee'), name: 'Ivy', form_id: forms.open, external_id: 'order-7', ...gift },
    { email: at('clicker'), name: 'Carl', form_id: forms.email, order_id: 'A-1002', locale: 'de' },
    { email: at('leaver'), name: 'Lea', form_id: forms.open },
    { email: at('blocked'), name: 'Ben', form_id: forms.open },
    { email: at('bouncer'), name: 'Bea', form_id: forms.open },
    { email: at('later'), name: 'Lou', form_id: forms.open, send_at: '2099-01-01T09:00:00Z' },
  ]);

  const invited = await submitRequested(org, await requestToken(org.sql, at('invitee')), {
    name: 'Ivy',
    email: at('invitee'),
    rating: 5,
    content: 'They asked me for a review and here it is.',
  });
  expectAnswer('submit_requested_review', invited.verification_status, 'verified');
  const clickToken = await requestToken(org.sql, at('clicker'));
  const leaverToken = await requestToken(org.sql, at('leaver'));
  const [{ outcome }] = await org.publicly((tx) =>
    tx`select plaudit.unsubscribe_review_request(${leaverToken}) as outcome`
  );
  expectAnswer('unsubscribe_review_request', outcome, 'unsubscribed');

  await sendMails(org);
  await providerEvent(org, at('clicker'), 'delivered');
  await providerEvent(org, at('bouncer'), 'bounced');
  await org.publicly(async (tx) => {
    await tx`select plaudit.track_review_request(${clickToken}, 'opened')`;
    await tx`select plaudit.track_review_request(${clickToken}, 'clicked')`;
  });
  // The worker's reminder run, its clock four days on (plaudit.run_review_request_maintenance uses now()).
  const [{ reminders }] = await org.sql`
    select plaudit.queue_due_reminders(now() + interval '4 days', 1000, array[${org.id}::uuid]) as reminders`;
  expectAnswer('queue_due_reminders', reminders, 1);
}

/**
 * The worker sends what is due: verification and invitation mails fail for now (to be retried),
 * the rest goes.
 */
async function sendMails(org: Org) {
  const claimed = await org.worker((tx) =>
    tx<{ id: string; claim_token: string; template: string }[]>`
      select id, claim_token, template from plaudit.claim_emails(100, 60, array[${org.id}::uuid])`
  );
  for (const mail of claimed) {
    const sent = mail.template !== 'review_verification' && mail.template !== 'team_invitation';
    await org.worker((tx) =>
      tx`select plaudit.record_email_result(${mail.id}, ${mail.claim_token}, ${sent},
           ${sent ? `provider-${mail.id}` : null}, ${sent ? null : 'connect ECONNREFUSED'}, ${sent ? null : 60000})`
    );
  }
}

/** The mail provider's webhook about the newest request e-mail to `email`. */
async function providerEvent(org: Org, email: string, type: string) {
  const mail = await newestMail(org.sql, 'review_request', email);
  await org.publicly((tx) =>
    tx`select plaudit.record_email_provider_event(${`provider-${mail.id}`}, ${type}, ${`evt-${type}-${mail.id}`},
         now(), ${tx.json({ provider: 'upgrade test' })})`
  );
}
