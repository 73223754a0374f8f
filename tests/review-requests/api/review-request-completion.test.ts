// A review request completed: a review from its landing page, the statistics and the list; and
// its reminders, on a simulated clock.
import { describe, expect, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import {
  capturedMail,
  getRequest,
  linkIn,
  local,
  postForm,
  requestsPath,
  tenantsWithMail,
  waitForMail,
  waitForStatus,
} from '../../helpers/review-requests.ts';

const setup = tenantsWithMail();

describe('landing page, completion and statistics', () => {
  it('a review submitted from the landing page completes the request and counts in the stats', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t, '/bulk'), {
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
    const r = await getRequest(t, id);
    expect(r).toMatchObject({ status: 'completed', completed_at: expect.any(String), review_id: expect.any(String) });
    const review = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${r.review_id}`, { key: t.keys.read });
    expect(review.body).toMatchObject({ rating: 5, reviewer_email: `s0@${domain}`, form_id: form.id });
    // The landing page now thanks instead of asking again.
    expect(await (await fetch(landingUrl)).text()).toContain('your review is in');

    await eventually(
      async () => {
        const s = await api('GET', requestsPath(t, '/stats'), { key: t.keys.read });
        return s.body.sent === 3 && s;
      },
      15_000,
      'all sent',
    );
    const stats = await api('GET', requestsPath(t, '/stats'), { key: t.keys.read });
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
        canceled: 0,
      },
      delivery_rate: 0.3333,
      open_rate: 0.3333,
      click_rate: 0.3333,
      completion_rate: 0.3333,
    });
    expect(stats.body.daily).toHaveLength(30);
    expect(stats.body.daily.at(-1)).toMatchObject({ date: today, requested: 3, sent: 3, clicked: 1, completed: 1 });
    expect(stats.body.daily[0]).toMatchObject({ requested: 0, sent: 0 });
    const range = await api('GET', requestsPath(t, `/stats?startDate=${today}&endDate=${today}`), { key: t.keys.read });
    expect(range.body.daily).toHaveLength(1);
    expect(
      (await api('GET', requestsPath(t, '/stats?startDate=2026-01-10&endDate=2026-01-01'), { key: t.keys.read }))
        .status,
    )
      .toBe(400);
    expect(
      (await api('GET', requestsPath(t, '/stats?startDate=2020-01-01&endDate=2026-01-01'), { key: t.keys.read }))
        .status,
    )
      .toBe(400);

    // A review written on the hosted form by another recipient completes that request too.
    const other = await postForm(local(form.submission_url), {
      rating: '2',
      content: 'Slow.',
      reviewer_name: 'S1',
      reviewer_email: `S1@${domain}`,
    });
    expect(other.status).toBe(201);
    expect((await getRequest(t, res.body.data[1].id)).status).toBe('completed');
  });

  it('lists with filters and pagination, and keeps tenants apart', async () => {
    const { t, form, domain } = await setup();
    await api('POST', requestsPath(t, '/bulk'), {
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
    const page = await api('GET', `${requestsPath(t)}?limit=3&page=1`, { key: t.keys.read });
    expect(page.body.meta).toEqual({ total: 4, page: 1, limit: 3, totalPages: 2 });
    const byEmail = await api('GET', `${requestsPath(t)}?email=L2@${domain}`, { key: t.keys.read });
    expect(byEmail.body.data.map((r: { name: string }) => r.name)).toEqual(['L2']);
    const byExt = await api('GET', `${requestsPath(t)}?external_id=l-3`, { key: t.keys.read });
    expect(byExt.body.data).toHaveLength(1);
    expect((await api('GET', `${requestsPath(t)}?status=nonsense`, { key: t.keys.read })).status).toBe(400);

    const other = await createTenant();
    const foreign = await api('GET', `/api/v1/organizations/${other.org.id}/review-requests/${page.body.data[0].id}`, {
      key: other.keys.read,
    });
    expect(foreign.status).toBe(404);
    expect(
      (await api('GET', `/api/v1/organizations/${other.org.id}/review-requests`, { key: other.keys.read })).body.meta
        .total,
    ).toBe(0);
    expect((await api('GET', requestsPath(t), { key: other.keys.read })).status).toBe(403);
  });
});

describe('reminders', () => {
  it('fire after the configured days (at most two), never after completion', async () => {
    const { t, form, domain, to } = await setup();
    const enable = await api('PATCH', requestsPath(t, '/settings'), {
      key: t.keys.admin,
      body: { reminders_enabled: true, reminder_delay_days: 2, reminder_max: 2 },
    });
    expect(enable.body).toMatchObject({ reminders_enabled: true, reminder_delay_days: 2, reminder_max: 2 });
    const res = await api('POST', requestsPath(t, '/bulk'), {
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
        const r = await getRequest(t, open.id);
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
        const r = await getRequest(t, open.id);
        return r.events.filter((e: { type: string }) => e.type === 'reminder_sent').length === 2 && r;
      },
      15_000,
      'two reminders sent',
    );
    const r = await getRequest(t, open.id);
    expect(r).toMatchObject({ status: 'sent', reminders_sent: 2 });
    expect(r.events.map((e: { type: string }) => e.type)).toEqual([
      'queued',
      'sent',
      'reminder_queued',
      'reminder_sent',
      'reminder_queued',
      'reminder_sent',
    ]);
    expect((await getRequest(t, done.id)).reminders_sent).toBe(0);
    expect(await capturedMail((x) => x === `done@${domain}`)).toHaveLength(1);
  });

  it('are off by default, and a reminder queued before a completion is withdrawn', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t), {
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
