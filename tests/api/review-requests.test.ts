// Review requests end to end: the API, the outbox, the worker sending over real SMTP into the
// development capture (/_dev/mail), the links in the captured messages (open pixel, click
// redirect, landing page, unsubscribe), provider events, reminders on a simulated clock, the
// quota, idempotency, and the team-invitation e-mail with its accept page.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { renderEmail } from '../../functions/_shared/core/email/templates.ts';
import { createTenant, db, type Tenant } from '../helpers/db.ts';
import { api, errorBody } from '../helpers/http.ts';
import { eventually } from '../helpers/receiver.ts';
import {
  capturedMail,
  createForm,
  linkIn,
  local,
  mailWorker,
  postForm,
  providerEvent,
  waitForMail,
} from '../helpers/review-requests.ts';
import type { TestWorker } from '../helpers/worker.ts';

const workers: TestWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

async function setup() {
  const t = await createTenant();
  const form = await createForm(t);
  const w = await mailWorker([t.org.id]);
  workers.push(w);
  const domain = `${t.org.slug}.example.com`;
  return { t, form, w, domain, to: (to: string) => to.endsWith(`@${domain}`) };
}

const path = (t: Tenant, rest = '') => `/api/v1/organizations/${t.org.id}/review-requests${rest}`;

async function request(t: Tenant, id: string) {
  const res = await api('GET', path(t, `/${id}`), { key: t.keys.read });
  expect(res.status).toBe(200);
  return res.body;
}

async function waitForStatus(t: Tenant, id: string, status: string) {
  return await eventually(
    async () => {
      const r = await request(t, id);
      return r.status === status && r;
    },
    15_000,
    `request ${id} ${status}`,
  );
}

describe('templates', () => {
  const data = {
    name: 'Zoë <b>',
    review_url: 'https://x.example/t/c/TOKEN',
    landing_url: 'https://x.example/r/TOKEN',
    rating_urls: [1, 2, 3, 4, 5].map((n) => `https://x.example/t/c/TOKEN?rating=${n}`),
    open_pixel_url: 'https://x.example/t/o/TOKEN.gif',
    unsubscribe_url: 'https://x.example/unsubscribe/TOKEN',
  };
  it('renders review_request, review_reminder and team_invitation in English and German, text and HTML', () => {
    const en = renderEmail('review_request', { locale: 'en', orgName: 'Acme & Co', data });
    expect(en.subject).toBe('How was your experience with Acme & Co?');
    expect(en.text).toContain('Hello Zoë <b>,');
    expect(en.text).toContain('Unsubscribe from review requests: https://x.example/unsubscribe/TOKEN');
    expect(en.html).toContain('Zoë &lt;b&gt;');
    expect(en.html).toContain('Acme &amp; Co');
    expect(en.html).toContain('src="https://x.example/t/o/TOKEN.gif"');
    expect(en.html).toContain('href="https://x.example/t/c/TOKEN?rating=5"');
    expect(en.headers).toEqual({
      'List-Unsubscribe': '<https://x.example/unsubscribe/TOKEN>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const de = renderEmail('review_request', { locale: 'de-AT', orgName: 'Acme', data });
    expect(de.subject).toBe('Wie war Ihre Erfahrung mit Acme?');
    expect(de.html).toContain('lang="de"');
    expect(renderEmail('review_reminder', { locale: 'en', orgName: 'Acme', data }).subject).toBe(
      'A reminder: how was your experience with Acme?',
    );
    expect(renderEmail('review_reminder', { locale: 'de', orgName: 'Acme', data }).subject).toBe(
      'Erinnerung: Wie war Ihre Erfahrung mit Acme?',
    );
    // A reminder says how many more may follow, by its number and the limit it was queued under.
    const reminder = (locale: string, extra: Record<string, unknown>) =>
      renderEmail('review_reminder', { locale, orgName: 'Acme', data: { ...data, ...extra } });
    expect(reminder('en', { reminder: 1, reminder_max: 2 }).text).toContain(
      'help other customers. You will get at most one more reminder for this request.',
    );
    expect(reminder('en', { reminder: 2, reminder_max: 2 }).html).toContain(
      'This is the last reminder you will get for this request.',
    );
    expect(reminder('en', { reminder: 1, reminder_max: 1 }).text).toContain(
      'This is the last reminder you will get for this request.',
    );
    expect(reminder('de', { reminder: 1, reminder_max: 2 }).text).toContain(
      'Zu dieser Anfrage erhalten Sie höchstens eine weitere Erinnerung.',
    );
    expect(reminder('de', { reminder: 2, reminder_max: 2 }).text).toContain(
      'Dies ist die letzte Erinnerung zu dieser Anfrage.',
    );
    for (const locale of ['en', 'de']) {
      const unknown = reminder(locale, {}).text;
      expect(unknown).not.toMatch(/only reminder|last reminder|weitere Erinnerung|letzte Erinnerung/);
    }
    const inv = renderEmail('team_invitation', {
      locale: 'en',
      orgName: 'Acme',
      data: { accept_url: 'https://x.example/invitations/T', role: 'admin', expires_at: '2026-12-01T00:00:00Z' },
    });
    expect(inv.subject).toBe('You are invited to join Acme on Plaudit');
    expect(inv.text).toContain('https://x.example/invitations/T');
    expect(inv.text).toContain('2026-12-01');
    expect(renderEmail('team_invitation', { locale: 'de', orgName: 'Acme', data: {} }).subject).toBe(
      'Einladung: Treten Sie Acme auf Plaudit bei',
    );
    const evil = renderEmail('review_request', {
      locale: 'en',
      orgName: 'A',
      data: { ...data, review_url: 'javascript:alert(1)' },
    });
    expect(evil.html).not.toContain('javascript:');
  });
});

describe('creating review requests', () => {
  it('creates one request, sends it over SMTP and marks it sent', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t), {
      key: t.keys.write,
      body: {
        email: `ann@${domain}`,
        name: 'Ann',
        form_id: form.id,
        order_id: 'A-1',
        external_id: 'ext-1',
        is_admin: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      email: `ann@${domain}`,
      name: 'Ann',
      form_id: form.id,
      order_id: 'A-1',
      external_id: 'ext-1',
      locale: 'en',
      status: 'queued',
      sent_at: null,
      created_at: expect.stringMatching(/Z$/),
      events: [{ type: 'queued', occurred_at: expect.stringMatching(/Z$/), data: {} }],
    });
    expect(res.body).not.toHaveProperty('is_admin');
    const [mail] = await waitForMail(to, 1);
    expect(mail.subject).toBe(`How was your experience with ${t.org.name}?`);
    expect(mail.text).toContain('Hello Ann,');
    const sent = await waitForStatus(t, res.body.id, 'sent');
    expect(sent.sent_at).toMatch(/Z$/);
    expect(sent.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent']);

    // The same external_id again: 409, nothing sent.
    const again = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: `ann@${domain}`, name: 'Ann', form_id: form.id, external_id: 'ext-1' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /external_id/));
  });

  it('validates: 422 naming the field, 404 for an unknown form, read keys refused', async () => {
    const { t, form } = await setup();
    const bad = await api('POST', path(t), { key: t.keys.write, body: { email: 'nope', name: 'A', form_id: form.id } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(errorBody(422, 'Unprocessable Entity', /email/));
    const far = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: form.id, send_at: '2099-01-01T00:00:00Z' },
    });
    expect(far.status).toBe(422);
    const unknown = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    const other = await createTenant();
    const otherForm = await createForm(other);
    const foreign = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: otherForm.id },
    });
    expect(foreign.status).toBe(404);
    const read = await api('POST', path(t), {
      key: t.keys.read,
      body: { email: 'a@b.example', name: 'A', form_id: form.id },
    });
    expect(read.status).toBe(403);
  });

  it('waits for send_at before sending', async () => {
    const { t, form, domain } = await setup();
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const res = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: `later@${domain}`, name: 'L', form_id: form.id, send_at: sendAt },
    });
    expect(res.status).toBe(201);
    expect(res.body.send_at).toBe(sendAt);
    expect(res.body.events[0].data).toEqual({ send_at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 500));
    expect((await request(t, res.body.id)).status).toBe('queued');
    const [row] =
      await db`select next_attempt_at from plaudit.email_outbox where data ->> 'review_request_id' = ${res.body.id}`;
    expect(row.next_attempt_at.toISOString()).toBe(sendAt);
  });

  it('bulk: 200 accepted rows give 200 e-mails with their own links; bad rows are listed by index', async () => {
    const { t, form, domain, to } = await setup();
    const rows: unknown[] = Array.from({ length: 200 }, (_, i) => ({
      email: `c${i}@${domain}`,
      name: `Customer ${i}`,
      form_id: form.id,
      external_id: `order-${i}`,
      locale: i % 2 ? 'de' : 'en',
    }));
    rows.splice(10, 0, { email: 'not-an-email', name: 'X', form_id: form.id });
    rows.splice(20, 0, { email: `dup@${domain}`, name: 'Dup', form_id: form.id, external_id: 'order-3' });
    const res = await api('POST', path(t, '/bulk'), { key: t.keys.write, body: { requests: rows } });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(200);
    expect(res.body.data).toHaveLength(200);
    expect(res.body.rejected).toEqual([
      { index: 10, message: expect.stringMatching(/^email: /) },
      { index: 20, message: expect.stringMatching(/^external_id: repeats/) },
    ]);
    expect(res.body.data[0]).toMatchObject({ email: `c0@${domain}`, status: 'queued', events: [{ type: 'queued' }] });

    const mails = await waitForMail(to, 200, 60_000);
    expect(mails).toHaveLength(200);
    const byAddress = new Map(mails.map((m) => [m.to, m]));
    expect(byAddress.size).toBe(200);
    const tokens = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const m = byAddress.get(`c${i}@${domain}`)!;
      expect(m.subject).toBe(
        i % 2 ? `Wie war Ihre Erfahrung mit ${t.org.name}?` : `How was your experience with ${t.org.name}?`,
      );
      expect(m.text).toContain(`Customer ${i}`);
      const review = linkIn(m.text, /\/t\/c\/[A-Za-z0-9_-]{43}$/);
      const token = review.split('/').pop()!;
      tokens.add(token);
      expect(m.text).toContain(`${review}?rating=5`);
      expect(linkIn(m.text, /\/unsubscribe\//)).toMatch(new RegExp(`/unsubscribe/${token}$`));
      expect(m.html).toContain(`/t/o/${token}.gif`);
    }
    expect(tokens.size).toBe(200);
    // A landing page from one of the messages is that recipient's.
    const m7 = byAddress.get(`c7@${domain}`)!;
    const landing = await fetch(local(linkIn(m7.text, /\/t\/c\/[^?]+$/)));
    expect(landing.status).toBe(200);
    expect(landing.url).toMatch(/\/r\/[A-Za-z0-9_-]{43}\?c=1$/);
    const page = await landing.text();
    expect(page).toContain(`value="c7@${domain}"`);
    expect(page).toContain('value="Customer 7"');

    await eventually(
      async () => {
        const list = await api('GET', `${path(t)}?status=sent&limit=1`, { key: t.keys.read });
        return list.body.meta.total === 199 && list;
      },
      20_000,
      'all sent',
    );
  });

  it('an Idempotency-Key answers the first result again and sends nothing twice; a repeated external_id is refused', async () => {
    const { t, form, domain, to } = await setup();
    const body = {
      requests: Array.from(
        { length: 5 },
        (_, i) => ({ email: `i${i}@${domain}`, name: `I${i}`, form_id: form.id, external_id: `x-${i}` }),
      ),
    };
    const headers = { 'idempotency-key': `batch-${t.org.slug}` };
    const first = await api('POST', path(t, '/bulk'), { key: t.keys.write, body, headers });
    expect(first.status).toBe(202);
    expect(first.body.accepted).toBe(5);
    const second = await api('POST', path(t, '/bulk'), { key: t.keys.write, body, headers });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const otherBody = await api('POST', path(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: body.requests.slice(1) },
      headers,
    });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual(errorBody(422, 'Unprocessable Entity', /Idempotency-Key/));
    // Without the key, the same rows are refused by external_id.
    const third = await api('POST', path(t, '/bulk'), { key: t.keys.write, body });
    expect(third.status).toBe(202);
    expect(third.body.accepted).toBe(0);
    expect(third.body.rejected.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(third.body.rejected[0].message).toMatch(/external_id: .*not sent again/);

    await waitForMail(to, 5);
    await new Promise((r) => setTimeout(r, 500));
    expect(await capturedMail(to)).toHaveLength(5);
    const [{ n }] = await db`select count(*)::int as n from plaudit.review_requests where org_id = ${t.org.id}`;
    expect(n).toBe(5);
    const [{ m }] = await db`select count(*)::int as m from plaudit.email_outbox where org_id = ${t.org.id}`;
    expect(m).toBe(5);
  });

  it('refuses bodies outside 1–1,000 rows as a whole', async () => {
    const { t, form } = await setup();
    expect((await api('POST', path(t, '/bulk'), { key: t.keys.write, body: { requests: [] } })).status).toBe(422);
    const many = Array.from({ length: 1001 }, () => ({ email: 'a@b.example', name: 'A', form_id: form.id }));
    expect((await api('POST', path(t, '/bulk'), { key: t.keys.write, body: { requests: many } })).status).toBe(422);
  });

  it('a daily quota: beyond it, 429 in the error format with Retry-After, and nothing is created', async () => {
    const { t, form, domain } = await setup();
    expect((await api('PATCH', path(t, '/settings'), { key: t.keys.write, body: { daily_quota: 3 } })).status).toBe(
      403,
    );
    const set = await api('PATCH', path(t, '/settings'), { key: t.keys.admin, body: { daily_quota: 3 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ daily_quota: 3, used_today: 0, remaining_today: 3, reminders_enabled: false });
    for (let i = 0; i < 2; i++) {
      expect(
        (await api('POST', path(t), {
          key: t.keys.write,
          body: { email: `q${i}@${domain}`, name: 'Q', form_id: form.id },
        })).status,
      ).toBe(201);
    }
    const bulk = await api('POST', path(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: [0, 1].map((i) => ({ email: `b${i}@${domain}`, name: 'B', form_id: form.id })) },
    });
    expect(bulk.status).toBe(429);
    expect(bulk.body).toEqual(errorBody(429, 'Too Many Requests', /quota of 3 .*1 remaining/));
    expect(Number(bulk.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (await api('POST', path(t), { key: t.keys.write, body: { email: `q2@${domain}`, name: 'Q', form_id: form.id } }))
        .status,
    ).toBe(201);
    const over = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: `q3@${domain}`, name: 'Q', form_id: form.id },
    });
    expect(over.status).toBe(429);
    const list = await api('GET', path(t), { key: t.keys.read });
    expect(list.body.meta.total).toBe(3);
    const settings = await api('GET', path(t, '/settings'), { key: t.keys.read });
    expect(settings.body).toMatchObject({ used_today: 3, remaining_today: 0 });
  });
});

describe('tracking', () => {
  it('records opens and clicks once in the timeline, counts each, and redirects only to the landing page', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t), {
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
    let r = await request(t, res.body.id);
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
    r = await request(t, res.body.id);
    expect(r).toMatchObject({ status: 'opened', click_count: 0, clicked_at: null });

    const click = await fetch(local(linkIn(mail.text, /rating=4$/)), { redirect: 'manual' });
    expect(click.status).toBe(303);
    expect(click.headers.get('location')).toBe(`/r/${token}?c=1&rating=4`);
    await fetch(local(linkIn(mail.text, /rating=2$/)), { redirect: 'manual' });
    r = await request(t, res.body.id);
    expect(r).toMatchObject({ status: 'clicked', click_count: 2 });
    expect(r.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent', 'opened', 'clicked']);

    // A forged token: a 404 page for the redirect, the pixel still answers (and records nothing).
    const forged = token!.slice(0, 30) + (token![30] === 'A' ? 'B' : 'A') + token!.slice(31);
    expect((await fetch(`${inject('apiUrl')}/t/c/${forged}`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/t/c/${forged}`, { method: 'HEAD', redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/r/${forged}`)).status).toBe(404);
    expect((await fetch(`${inject('apiUrl')}/t/o/${forged}.gif`)).status).toBe(200);
    expect((await request(t, res.body.id)).open_count).toBe(2);
  });

  it('provider events: signed, applied once, out of order; a bounce suppresses the address and a later request is not sent', async () => {
    const { t, form, domain, to } = await setup();
    const email = `bounce@${domain}`;
    const res = await api('POST', path(t), { key: t.keys.write, body: { email, name: 'B', form_id: form.id } });
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
    const r = await request(t, res.body.id);
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

    const later = await api('POST', path(t), {
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
    const again = await api('POST', path(t), { key: t.keys.write, body: { email, name: 'B', form_id: form.id } });
    expect(again.body.status).toBe('queued');
    await waitForMail(to, 2);
  });

  it('provider events for a message id not recorded yet answer 404, so that the provider delivers them again', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t), {
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
    expect((await request(t, res.body.id)).status).toBe('sent');

    // The worker records the id; the provider's retry applies, and a repeat of it is a duplicate.
    await db`update plaudit.email_outbox set provider_message_id = ${messageId} where id = ${outboxId}`;
    const retried = await providerEvent(delivered, { id: `evt-early-${res.body.id}` });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ received: true, outcome: 'applied' });
    const again = await providerEvent(delivered, { id: `evt-early-${res.body.id}` });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
    expect((await request(t, res.body.id)).status).toBe('delivered');
  });

  it('a transient bounce is recorded without suppressing; a complaint suppresses', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t), {
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
    const r = await request(t, res.body.id);
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

describe('landing page, completion and statistics', () => {
  it('a review submitted from the landing page completes the request and counts in the stats', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: [0, 1, 2].map((i) => ({ email: `s${i}@${domain}`, name: `S${i}`, form_id: form.id })) },
    });
    expect(res.body.accepted).toBe(3);
    const mails = await waitForMail(to, 3);
    const mail = mails.find((m) => m.to === `s0@${domain}`)!;
    const redirect = await fetch(local(linkIn(mail.text, /rating=5$/)), { redirect: 'manual' });
    const landingUrl = local(
      new URL(redirect.headers.get('location')!, local(mail.text.match(/https?:\/\/[^\s]+/)![0])).toString(),
    );
    const page = await (await fetch(landingUrl)).text();
    expect(page).toMatch(/<input type="radio" name="rating" value="5" checked/);

    const invalid = await postForm(landingUrl, {
      rating: '5',
      content: '',
      reviewer_name: 'S0',
      reviewer_email: `s0@${domain}`,
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toContain('aria-invalid="true"');
    expect(invalid.body).toContain('Write a few words about your experience.');

    const ok = await postForm(landingUrl, {
      rating: '5',
      content: 'Great service, fast delivery.',
      reviewer_name: 'S0',
      reviewer_email: `s0@${domain}`,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toContain('Thank you for your review');
    const id = res.body.data[0].id;
    const r = await request(t, id);
    expect(r).toMatchObject({ status: 'completed', completed_at: expect.any(String), review_id: expect.any(String) });
    const review = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${r.review_id}`, { key: t.keys.read });
    expect(review.body).toMatchObject({ rating: 5, reviewer_email: `s0@${domain}`, form_id: form.id });
    // The landing page now thanks instead of asking again.
    expect(await (await fetch(landingUrl)).text()).toContain('your review is in');

    await eventually(
      async () => {
        const s = await api('GET', path(t, '/stats'), { key: t.keys.read });
        return s.body.sent === 3 && s;
      },
      15_000,
      'all sent',
    );
    const stats = await api('GET', path(t, '/stats'), { key: t.keys.read });
    expect(stats.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.body).toMatchObject({
      endDate: today,
      total: 3,
      sent: 3,
      by_status: {
        queued: 0,
        sent: 2,
        delivered: 0,
        opened: 0,
        clicked: 0,
        completed: 1,
        bounced: 0,
        complained: 0,
        unsubscribed: 0,
        failed: 0,
      },
      delivery_rate: 0.3333,
      open_rate: 0.3333,
      click_rate: 0.3333,
      completion_rate: 0.3333,
    });
    expect(stats.body.daily).toHaveLength(30);
    expect(stats.body.daily.at(-1)).toMatchObject({ date: today, requested: 3, sent: 3, clicked: 1, completed: 1 });
    expect(stats.body.daily[0]).toMatchObject({ requested: 0, sent: 0 });
    const range = await api('GET', path(t, `/stats?startDate=${today}&endDate=${today}`), { key: t.keys.read });
    expect(range.body.daily).toHaveLength(1);
    expect((await api('GET', path(t, '/stats?startDate=2026-01-10&endDate=2026-01-01'), { key: t.keys.read })).status)
      .toBe(400);
    expect((await api('GET', path(t, '/stats?startDate=2020-01-01&endDate=2026-01-01'), { key: t.keys.read })).status)
      .toBe(400);

    // A review written on the hosted form by another recipient completes that request too.
    const other = await postForm(local(form.submission_url), {
      rating: '2',
      content: 'Slow.',
      reviewer_name: 'S1',
      reviewer_email: `S1@${domain}`,
    });
    expect(other.status).toBe(201);
    expect((await request(t, res.body.data[1].id)).status).toBe('completed');
  });

  it('lists with filters and pagination, and keeps tenants apart', async () => {
    const { t, form, domain } = await setup();
    await api('POST', path(t, '/bulk'), {
      key: t.keys.write,
      body: {
        requests: [0, 1, 2, 3].map((i) => ({
          email: `l${i}@${domain}`,
          name: `L${i}`,
          form_id: form.id,
          external_id: `l-${i}`,
        })),
      },
    });
    const page = await api('GET', `${path(t)}?limit=3&page=1`, { key: t.keys.read });
    expect(page.body.meta).toEqual({ total: 4, page: 1, limit: 3, totalPages: 2 });
    const byEmail = await api('GET', `${path(t)}?email=L2@${domain}`, { key: t.keys.read });
    expect(byEmail.body.data.map((r: { name: string }) => r.name)).toEqual(['L2']);
    const byExt = await api('GET', `${path(t)}?external_id=l-3`, { key: t.keys.read });
    expect(byExt.body.data).toHaveLength(1);
    expect((await api('GET', `${path(t)}?status=nonsense`, { key: t.keys.read })).status).toBe(400);

    const other = await createTenant();
    const foreign = await api('GET', `/api/v1/organizations/${other.org.id}/review-requests/${page.body.data[0].id}`, {
      key: other.keys.read,
    });
    expect(foreign.status).toBe(404);
    expect(
      (await api('GET', `/api/v1/organizations/${other.org.id}/review-requests`, { key: other.keys.read })).body.meta
        .total,
    ).toBe(0);
    expect((await api('GET', path(t), { key: other.keys.read })).status).toBe(403);
  });
});

describe('unsubscribe', () => {
  it('the page asks, the button unsubscribes, and mail clients can one-click', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t, '/bulk'), {
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
    expect((await request(t, res.body.data[0].id)).status).not.toBe('unsubscribed');
    const done = await postForm(url, {});
    expect(done.status).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect((await request(t, res.body.data[0].id)).status).toBe('unsubscribed');

    const m1 = mails.find((m) => m.to === `u1@${domain}`)!;
    const oneClick = await postForm(local(linkIn(m1.text, /\/unsubscribe\//)), { 'List-Unsubscribe': 'One-Click' });
    expect(oneClick.status).toBe(200);
    const list = await api('GET', `/api/v1/organizations/${t.org.id}/suppressions`, { key: t.keys.read });
    expect(list.body.data.map((s: { reason: string }) => s.reason)).toEqual(['unsubscribed', 'unsubscribed']);
    expect((await fetch(url.replace(/[^/]+$/, 'x'.repeat(43)))).status).toBe(404);
  });
});

describe('reminders', () => {
  it('fire after the configured days (at most two), never after completion', async () => {
    const { t, form, domain, to } = await setup();
    const enable = await api('PATCH', path(t, '/settings'), {
      key: t.keys.admin,
      body: { reminders_enabled: true, reminder_delay_days: 2, reminder_max: 2 },
    });
    expect(enable.body).toMatchObject({ reminders_enabled: true, reminder_delay_days: 2, reminder_max: 2 });
    const res = await api('POST', path(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: ['open', 'done'].map((n) => ({ email: `${n}@${domain}`, name: n, form_id: form.id })) },
    });
    const [open, done] = res.body.data;
    const firsts = await waitForMail(to, 2);
    await waitForStatus(t, open.id, 'sent');
    await waitForStatus(t, done.id, 'sent');
    // `done` answers through its landing page.
    const doneMail = firsts.find((m) => m.to === `done@${domain}`)!;
    const landing = local(linkIn(doneMail.text, /\/t\/c\/[^?]+$/).replace('/t/c/', '/r/'));
    expect(
      (await postForm(landing, {
        rating: '4',
        content: 'Good.',
        reviewer_name: 'done',
        reviewer_email: `done@${domain}`,
      })).status,
    ).toBe(201);

    const day = 86_400_000;
    const tick = async (ms: number) => {
      const [{ n }] = await db`select plaudit.queue_due_reminders(${new Date(Date.now() + ms)}, 1000, ${[
        t.org.id,
      ]}::uuid[]) as n`;
      return n as number;
    };
    expect(await tick(1 * day)).toBe(0);
    expect(await tick(2 * day + 60_000)).toBe(1);
    expect(await tick(2 * day + 120_000)).toBe(0);
    const reminders = await waitForMail((x) => to(x) && x.startsWith('open@'), 2);
    const first = reminders.find((m) => m.subject.startsWith('A reminder'))!;
    expect(first.subject).toBe(`A reminder: how was your experience with ${t.org.name}?`);
    // With reminder_max 2 the first reminder is not the only one, and says so.
    expect(first.text).toContain(`A few days ago ${t.org.name} asked about your experience.`);
    expect(first.text).toContain('You will get at most one more reminder for this request.');
    expect(first.text).not.toContain('only reminder');
    // The next reminder counts from the first one's sending, which the worker records just after
    // the mail server took the message: wait for that record, not for the mail.
    await eventually(
      async () => {
        const r = await request(t, open.id);
        return r.events.some((e: { type: string }) => e.type === 'reminder_sent') && r;
      },
      15_000,
      'the first reminder recorded as sent',
    );
    expect(await tick(4 * day + 180_000)).toBe(1);
    expect(await tick(30 * day)).toBe(0);
    const all = await waitForMail((x) => to(x) && x.startsWith('open@'), 3);
    const second = all.filter((m) => m.subject.startsWith('A reminder')).find((m) => m.id !== first.id)!;
    expect(second.text).toContain('This is the last reminder you will get for this request.');
    expect(second.text).not.toContain('one more reminder');
    await eventually(
      async () => {
        const r = await request(t, open.id);
        return r.events.filter((e: { type: string }) => e.type === 'reminder_sent').length === 2 && r;
      },
      15_000,
      'two reminders sent',
    );
    const r = await request(t, open.id);
    expect(r).toMatchObject({ status: 'sent', reminders_sent: 2 });
    expect(r.events.map((e: { type: string }) => e.type)).toEqual([
      'queued',
      'sent',
      'reminder_queued',
      'reminder_sent',
      'reminder_queued',
      'reminder_sent',
    ]);
    expect((await request(t, done.id)).reminders_sent).toBe(0);
    expect(await capturedMail((x) => x === `done@${domain}`)).toHaveLength(1);
  });

  it('are off by default, and a reminder queued before a completion is withdrawn', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', path(t), {
      key: t.keys.write,
      body: { email: `r@${domain}`, name: 'R', form_id: form.id },
    });
    await waitForMail(to, 1);
    await waitForStatus(t, res.body.id, 'sent');
    const [{ n }] = await db`select plaudit.queue_due_reminders(${new Date(Date.now() + 30 * 86_400_000)}, 1000, ${[
      t.org.id,
    ]}::uuid[]) as n`;
    expect(n).toBe(0);

    await db`insert into plaudit.review_request_settings (org_id, reminders_enabled, reminder_delay_days) values (${t.org.id}, true, 1)`;
    // Queue the reminder in the same transaction that completes the request: it never leaves.
    await db.begin(async (tx) => {
      const [{ q }] = await tx`select plaudit.queue_due_reminders(${new Date(Date.now() + 2 * 86_400_000)}, 1000, ${[
        t.org.id,
      ]}::uuid[]) as q`;
      expect(q).toBe(1);
      await tx`select plaudit.apply_review_request_event(${res.body.id}, 'completed', 'completed', now(), '{}')`;
    });
    const [row] =
      await db`select status, last_error from plaudit.email_outbox where template = 'review_reminder' and data ->> 'review_request_id' = ${res.body.id}`;
    expect(row).toMatchObject({ status: 'failed', last_error: 'cancelled: the request is completed' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await capturedMail(to)).toHaveLength(1);
  });
});

describe('team invitations', () => {
  it('e-mails the invitation; the accept page makes the invitee a member', async () => {
    const t = await createTenant();
    const w = await mailWorker([t.org.id]);
    workers.push(w);
    const email = `new-${t.org.slug}@example.com`;
    const inv = await api('POST', `/api/v1/organizations/${t.org.id}/invitations`, {
      key: t.keys.admin,
      body: { email, role: 'admin' },
    });
    expect(inv.status).toBe(201);
    const [mail] = await waitForMail((x) => x === email, 1);
    expect(mail.subject).toBe(`You are invited to join ${t.org.name} on Plaudit`);
    const url = local(linkIn(mail.text, /\/invitations\//));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(email);
    expect(html).toContain('as an administrator');
    const missing = await postForm(url, { name: '' });
    expect(missing.status).toBe(422);
    expect(missing.body).toContain('aria-describedby="f-name-error"');
    const ok = await postForm(url, { name: 'Nia New' });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain(`Welcome to ${t.org.name}`);
    expect(ok.body).toContain('<a class="button" href="/app">Sign in to the dashboard</a>');
    const members = await api('GET', `/api/v1/organizations/${t.org.id}/members`, { key: t.keys.read });
    expect(members.body.data).toContainEqual(expect.objectContaining({ email, name: 'Nia New', role: 'admin' }));
    const list = await api('GET', `/api/v1/organizations/${t.org.id}/invitations`, { key: t.keys.read });
    expect(list.body.data[0].status).toBe('accepted');
    expect((await postForm(url, { name: 'Again' })).status).toBe(409);
    expect((await fetch(url.replace(/[^/]+$/, 'x'.repeat(43)))).status).toBe(404);
  });

  it("a withdrawn invitation's link answers that it was withdrawn, and makes no member", async () => {
    const t = await createTenant();
    const w = await mailWorker([t.org.id]);
    workers.push(w);
    const email = `withdrawn-${t.org.slug}@example.com`;
    const inv = await api('POST', `/api/v1/organizations/${t.org.id}/invitations`, {
      key: t.keys.admin,
      body: { email, role: 'member' },
    });
    const [mail] = await waitForMail((x) => x === email, 1);
    const url = local(linkIn(mail.text, /\/invitations\//));
    expect(
      (await api('DELETE', `/api/v1/organizations/${t.org.id}/invitations/${inv.body.id}`, { key: t.keys.admin }))
        .status,
    ).toBe(204);
    const page = await fetch(url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This invitation was withdrawn');
    expect((await postForm(url, { name: 'Too Late' })).status).toBe(410);
    const members = await api('GET', `/api/v1/organizations/${t.org.id}/members`, { key: t.keys.read });
    expect(members.body.data.map((m: { email: string }) => m.email)).not.toContain(email);
  });
});

describe('hosted pages', () => {
  it('the form page renders custom fields, refuses bad input inline, and stores a good review', async () => {
    const t = await createTenant();
    const form = await createForm(t, {
      custom_fields: [
        { key: 'size', label: 'Size <S/M/L>', type: 'select', required: true, options: ['S', 'M', 'L'] },
        { key: 'again', label: 'Would buy again', type: 'boolean' },
      ],
    });
    const url = local(form.submission_url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Size &lt;S/M/L&gt;');
    expect(html).not.toContain('<script');
    expect(html).toContain('<legend>Your rating</legend>');

    const bad = await postForm(url, { rating: '9', content: 'x', reviewer_name: '', reviewer_email: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('Please correct 4 things');
    expect(bad.body).toMatch(
      /id="f-reviewer_email" name="reviewer_email" aria-invalid="true" aria-describedby="f-reviewer_email-hint f-reviewer_email-error"/,
    );
    expect(bad.body).toContain('value="nope"');
    expect(bad.body).toMatch(/value="1" id="f-rating" autofocus/);

    const good = await postForm(url, {
      rating: '4',
      content: 'Fits well <3',
      reviewer_name: 'Ida',
      reviewer_email: 'ida@example.com',
      cf_size: 'M',
      cf_again: 'yes',
    });
    expect(good.status).toBe(201);
    const [review] = await db`select rating, content, custom_fields from plaudit.reviews where form_id = ${form.id}`;
    expect(review).toMatchObject({ rating: 4, content: 'Fits well <3', custom_fields: { size: 'M', again: true } });
    expect((await fetch(local(form.submission_url).replace(form.id, '00000000-0000-4000-8000-000000000000'))).status)
      .toBe(404);
  });

  it('the verification page confirms once and says clearly when a link was used or is not valid', async () => {
    const t = await createTenant();
    const form = await createForm(t, { verification_mode: 'email' });
    const sent = await postForm(local(form.submission_url), {
      rating: '5',
      content: 'Verified please',
      reviewer_name: 'V',
      reviewer_email: `v-${t.org.slug}@example.com`,
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toContain('open its link to confirm');
    const [{ token }] =
      await db`select data ->> 'token' as token from plaudit.email_outbox where org_id = ${t.org.id} and template = 'review_verification'`;
    const opened = await fetch(`${inject('apiUrl')}/verify/${token}`);
    expect(await opened.text()).toContain('Confirm my review');
    const first = await fetch(`${inject('apiUrl')}/verify/${token}`, { method: 'POST' });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Your review is confirmed');
    const again = await fetch(`${inject('apiUrl')}/verify/${token}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already used');
    expect((await fetch(`${inject('apiUrl')}/verify/${'x'.repeat(43)}`)).status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('documents every review-request route with its scope', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    const base = '/api/v1/organizations/{orgId}';
    for (
      const [p, method, scope] of [
        [`${base}/review-requests`, 'post', 'write'],
        [`${base}/review-requests/bulk`, 'post', 'write'],
        [`${base}/review-requests`, 'get', 'read'],
        [`${base}/review-requests/{id}`, 'get', 'read'],
        [`${base}/review-requests/stats`, 'get', 'read'],
        [`${base}/review-requests/settings`, 'get', 'read'],
        [`${base}/review-requests/settings`, 'patch', 'admin'],
        [`${base}/suppressions`, 'get', 'read'],
        [`${base}/suppressions`, 'post', 'write'],
        [`${base}/suppressions/{id}`, 'delete', 'write'],
        ['/api/v1/email-events', 'post', undefined],
      ] as const
    ) {
      const op = paths[p]?.[method];
      expect(op, `${method} ${p}`).toBeDefined();
      expect(op['x-required-scope'], `${method} ${p}`).toBe(scope);
    }
    expect(paths[`${base}/review-requests/bulk`].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'idempotency-key', in: 'header' }),
    );
    for (
      const schema of [
        'ReviewRequest',
        'ReviewRequestInput',
        'BulkReviewRequestResult',
        'ReviewRequestStats',
        'Suppression',
        'ReviewRequestSettings',
      ]
    ) {
      expect(res.body.components.schemas[schema], schema).toBeDefined();
    }
  });
});
