// The e-mail verification flow end to end, as a developer runs it with npm start: a review is
// submitted to an e-mail-verification form → the worker sends the message over SMTP into the
// local capture → the link in /_dev/mail is followed and its button pressed → the review is verified → review.verified
// reaches a registered webhook, signed.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { smtpTransport } from '../../../functions/_shared/core/email/transport.ts';
import { verifyHexSignature } from '../../../functions/_shared/core/webhooks/signing.ts';
import { createTenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

let worker: TestWorker | undefined;
let receiver: Receiver | undefined;
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe('e-mail verification, end to end', () => {
  it('submit → mail captured → link → button → verified → review.verified delivered', { timeout: 60_000 }, async () => {
    const t = await createTenant();
    receiver = await startReceiver();
    const hook = await api('POST', `/api/v1/organizations/${t.org.id}/webhooks`, {
      key: t.keys.write,
      body: { url: receiver.url, events: ['review.verified'] },
    });
    expect(hook.status).toBe(201);
    const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
      key: t.keys.write,
      body: { name: 'Verified reviews', verification_mode: 'email', custom_fields: [], is_active: true },
    });
    expect(form.status).toBe(201);
    worker = await startWorker([t.org.id], {}, { emailTransport: smtpTransport(inject('devMailSmtpUrl')) });

    const email = `flow-${t.org.slug}@example.com`;
    const submitted = await api('POST', '/api/v1/reviews', {
      body: {
        form_id: form.body.id,
        rating: 4,
        content: 'Arrived on time, well packed.',
        reviewer_name: 'Flo',
        reviewer_email: email,
      },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.verification_status).toBe('pending');

    const message = await eventually(
      async () => {
        const res = await fetch(`${inject('apiUrl')}/_dev/mail/messages`);
        const { data } = await res.json();
        return data.find((m: { to: string }) => m.to === email);
      },
      15_000,
      'the verification e-mail in /_dev/mail',
    );
    expect(message.subject).toBe(`Please confirm your review of ${t.org.name}`);
    const link = /https?:\/\/\S+\/api\/v1\/public\/verifications\/\S+/.exec(message.text)?.[0];
    expect(link).toBeDefined();
    expect(message.html).toContain(`href="${link}"`);
    // Opening the link shows a button and verifies nothing; the button's POST confirms.
    const page = await fetch(`${inject('apiUrl')}${new URL(link!).pathname}`);
    expect(page.status).toBe(200);
    const action = /<form method="post" action="([^"]+)">/.exec(await page.text())?.[1];
    expect(action).toMatch(/^\/verify\//);
    const pending = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${submitted.body.id}`, {
      key: t.keys.read,
    });
    expect(pending.body.verification_status).toBe('pending');
    const confirmed = await fetch(`${inject('apiUrl')}${action}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);

    const review = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${submitted.body.id}`, {
      key: t.keys.read,
    });
    expect(review.body.verification_status).toBe('verified');

    const [delivery] = await receiver.waitFor(1, 15_000);
    const body = JSON.parse(delivery.body);
    expect(body.event).toBe('review.verified');
    expect(JSON.stringify(body.data)).toContain(submitted.body.id);
    expect(await verifyHexSignature(hook.body.secret, delivery.body, delivery.headers['x-webhook-signature'] as string))
      .toBe(true);
  });
});
