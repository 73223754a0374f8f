// What happens to a sent review request: opens and clicks from the captured message's links, the
// e-mail provider's events (bounces, complaints), and unsubscribing.
import { describe, expect, inject, it } from 'vitest';
import { db } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import {
  capturedMail,
  getRequest,
  linkIn,
  local,
  postForm,
  providerEvent,
  requestsPath,
  tenantsWithMail,
  waitForMail,
  waitForStatus,
} from '../../helpers/review-requests.ts';

const setup = tenantsWithMail();

describe('tracking', () => {
  it('records opens and clicks once in the timeline, counts each, and redirects only to the landing page', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `o@${domain}`, name: 'O', form_id: form.id },
    });
    const [mail] = await waitForMail(to, 1);
    await waitForStatus(t, res.body.id, 'sent');
    const pixel = local(mail.html.match(/src="([^"]+\.gif)"/)![1]);
    for (let i = 0; i < 2; i++) {
      const img = await fetch(pixel);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/gif');
      expect((await img.arrayBuffer()).byteLength).toBe(42);
    }
    let r = await getRequest(t, res.body.id);
    expect(r).toMatchObject({
      status: 'opened',
      open_count: 2,
      opened_at: expect.any(String),
      delivered_at: expect.any(String),
    });

    // HEAD (link checkers, scanners) gets the same redirect and is no click.
    const token = linkIn(mail.text, /\/t\/c\/[^?]+$/).split('/').pop();
    const head = await fetch(local(linkIn(mail.text, /rating=3$/)), { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(303);
    expect(head.headers.get('location')).toBe(`/r/${token}?c=1&rating=3`);
    r = await getRequest(t, res.body.id);
    expect(r).toMatchObject({ status: 'opened', click_count: 0, clicked_at: null });

    const click = await fetch(local(linkIn(mail.text, /rating=4$/)), { redirect: 'manual' });
    expect(click.status).toBe(303);
    expect(click.headers.get('location')).toBe(`/r/${token}?c=1&rating=4`);
    await fetch(local(linkIn(mail.text, /rating=2$/)), { redirect: 'manual' });
    r = await getRequest(t, res.body.id);
    expect(r).toMatchObject({ status: 'clicked', click_count: 2 });
    expect(r.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent', 'opened', 'clicked']);

    // A forged token: a 404 page for the redirect, the pixel still answers (and records nothing).
    const forged = token!.slice(0, 30) + (token![30] === 'A' ? 'B' : 'A') + token!.slice(31);
    expect((await fetch(`${inject('apiUrl')}/t/c/${forged}`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/t/c/${forged}`, { method: 'HEAD', redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/r/${forged}`)).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/t/o/${forged}.gif`)).status).toBe(200);
    expect((await getRequest(t, res.body.id)).open_count).toBe(2);
  });

  it('provider events: signed, applied once, out of order; a bounce suppresses the address and a later request is not sent', async () => {
    const { t, form, domain, to } = await setup();
    const email = `bounce@${domain}`;
    const res = await api('POST', requestsPath(t), { key: t.keys.write, body: { email, name: 'B', form_id: form.id } });
    await waitForMail(to, 1);
    await waitForStatus(t, res.body.id, 'sent');
    const [{ provider_message_id: messageId }] = await db`
      select provider_message_id from plaudit.email_outbox where data ->> 'review_request_id' = ${res.body.id}`;
    expect(messageId).toBeTruthy();

    const unsigned = await api('POST', '/api/v1/email-events', {
      body: { type: 'email.bounced', data: { email_id: messageId } },
    });
    expect(unsigned.status).toBe(401);
    const wrong = await providerEvent({ type: 'email.bounced', data: { email_id: messageId } }, {
      secret: `whsec_${btoa('another secret')}`,
    });
    expect(wrong.status).toBe(401);
    const stale = await providerEvent({ type: 'email.bounced', data: { email_id: messageId } }, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(stale.status).toBe(401);

    const bounce = {
      type: 'email.bounced',
      created_at: new Date().toISOString(),
      data: { email_id: messageId, bounce: { type: 'Permanent', message: 'mailbox does not exist' } },
    };
    const first = await providerEvent(bounce, { id: `evt-${res.body.id}` });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: 'applied' });
    const dup = await providerEvent(bounce, { id: `evt-${res.body.id}` });
    expect(dup.body).toEqual({ received: true, outcome: 'duplicate' });
    // A delivered event arriving after the bounce changes nothing.
    const late = await providerEvent({
      type: 'email.delivered',
      created_at: new Date(Date.now() - 60_000).toISOString(),
      data: { email_id: messageId },
    });
    expect(late.body.outcome).toBe('recorded');
    const r = await getRequest(t, res.body.id);
    expect(r.status).toBe('bounced');
    expect(r.events.filter((e: { type: string }) => e.type === 'bounced')).toHaveLength(1);
    expect(r.events.find((e: { type: string }) => e.type === 'bounced').data).toMatchObject({
      bounce: { type: 'Permanent' },
    });
    expect((await providerEvent({ type: 'email.sent', data: { email_id: messageId } })).body.outcome).toBe('ignored');

    const list = await api(
      'GET',
      `/api/v1/organizations/${t.org.id}/suppressions?email=${encodeURIComponent(email.toUpperCase())}`,
      { key: t.keys.read },
    );
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{
      id: expect.any(String),
      email,
      reason: 'bounced',
      request_id: res.body.id,
      created_at: expect.any(String),
    }]);

    const later = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: email.toUpperCase(), name: 'B', form_id: form.id },
    });
    expect(later.status).toBe(201);
    expect(later.body.status).toBe('failed');
    expect(later.body.events).toEqual([
      expect.objectContaining({ type: 'queued' }),
      expect.objectContaining({ type: 'failed', data: { reason: 'suppressed', suppression_reason: 'bounced' } }),
    ]);
    const [{ n }] =
      await db`select count(*)::int as n from plaudit.email_outbox where data ->> 'review_request_id' = ${later.body.id}`;
    expect(n).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await capturedMail(to)).toHaveLength(1);

    // Lifting the suppression lets the address be asked again.
    const lifted = await api('DELETE', `/api/v1/organizations/${t.org.id}/suppressions/${list.body.data[0].id}`, {
      key: t.keys.write,
    });
    expect(lifted.status).toBe(204);
    const again = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email, name: 'B', form_id: form.id },
    });
    expect(again.body.status).toBe('queued');
    await waitForMail(to, 2);
  });

  it('provider events for a message id not recorded yet answer 404, so that the provider delivers them again', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `early@${domain}`, name: 'E', form_id: form.id },
    });
    await waitForMail(to, 1);
    await waitForStatus(t, res.body.id, 'sent');
    const [{ id: outboxId, provider_message_id: messageId }] = await db`
      select id, provider_message_id from plaudit.email_outbox where data ->> 'review_request_id' = ${res.body.id}`;
    // The provider's event overtakes the worker: the message id is not recorded yet.
    await db`update plaudit.email_outbox set provider_message_id = null where id = ${outboxId}`;
    const delivered = { type: 'email.delivered', created_at: new Date().toISOString(), data: { email_id: messageId } };
    const early = await providerEvent(delivered, { id: `evt-early-${res.body.id}` });
    expect(early.status).toBe(404);
    expect(early.body).toEqual(errorBody(404, 'Not Found', /not known yet/));
    expect((await getRequest(t, res.body.id)).status).toBe('sent');

    // The worker records the id; the provider's retry applies, and a repeat of it is a duplicate.
    await db`update plaudit.email_outbox set provider_message_id = ${messageId} where id = ${outboxId}`;
    const retried = await providerEvent(delivered, { id: `evt-early-${res.body.id}` });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ received: true, outcome: 'applied' });
    const again = await providerEvent(delivered, { id: `evt-early-${res.body.id}` });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
    expect((await getRequest(t, res.body.id)).status).toBe('delivered');
  });

  it('a transient bounce is recorded without suppressing; a complaint suppresses', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `soft@${domain}`, name: 'S', form_id: form.id },
    });
    await waitForMail(to, 1);
    await waitForStatus(t, res.body.id, 'sent');
    const [{ provider_message_id: id }] =
      await db`select provider_message_id from plaudit.email_outbox where data ->> 'review_request_id' = ${res.body.id}`;
    expect(
      (await providerEvent({ type: 'email.bounced', data: { email_id: id, bounce: { type: 'Transient' } } })).body
        .outcome,
    ).toBe('recorded');
    expect((await providerEvent({ type: 'email.delivered', data: { email_id: id } })).body.outcome).toBe('applied');
    expect((await api('GET', `/api/v1/organizations/${t.org.id}/suppressions`, { key: t.keys.read })).body.meta.total)
      .toBe(0);
    expect((await providerEvent({ type: 'email.complained', data: { email_id: id } })).body.outcome).toBe('applied');
    const r = await getRequest(t, res.body.id);
    expect(r.status).toBe('complained');
    expect(r.events.map((e: { type: string }) => e.type)).toEqual([
      'queued',
      'sent',
      'soft_bounced',
      'delivered',
      'complained',
    ]);
    expect(
      (await api('GET', `/api/v1/organizations/${t.org.id}/suppressions`, { key: t.keys.read })).body.data[0].reason,
    ).toBe('complained');
  });
});

describe('unsubscribe', () => {
  it('the page asks, the button unsubscribes, and mail clients can one-click', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: [0, 1].map((i) => ({ email: `u${i}@${domain}`, name: `U${i}`, form_id: form.id })) },
    });
    const mails = await waitForMail(to, 2);
    const m0 = mails.find((m) => m.to === `u0@${domain}`)!;
    const url = local(linkIn(m0.text, /\/unsubscribe\//));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain(`u0@${domain}`);
    expect(html).toContain('<button type="submit">Unsubscribe</button>');
    // GET changes nothing (link scanners open it).
    expect((await getRequest(t, res.body.data[0].id)).status).not.toBe('unsubscribed');
    const done = await postForm(url, {});
    expect(done.status).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect((await getRequest(t, res.body.data[0].id)).status).toBe('unsubscribed');

    const m1 = mails.find((m) => m.to === `u1@${domain}`)!;
    const oneClick = await postForm(local(linkIn(m1.text, /\/unsubscribe\//)), { 'List-Unsubscribe': 'One-Click' });
    expect(oneClick.status).toBe(200);
    const list = await api('GET', `/api/v1/organizations/${t.org.id}/suppressions`, { key: t.keys.read });
    expect(list.body.data.map((s: { reason: string }) => s.reason)).toEqual(['unsubscribed', 'unsubscribed']);
    expect((await fetch(url.replace(/[^/]+$/, 'x'.repeat(43)))).status).toBe(404);
  });
});
