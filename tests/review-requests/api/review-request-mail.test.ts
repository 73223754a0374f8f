// The e-mails of review requests and team invitations (templates, and an invitation accepted from
// its page), and the hosted form and verification pages they lead to.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { renderEmail } from '../../../functions/_shared/core/email/templates.ts';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, linkIn, local, mailWorker, postForm, waitForMail } from '../../helpers/review-requests.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const workers: TestWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

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
