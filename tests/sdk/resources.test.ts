// Every method of the SDK's resources, once at least, against the real API over HTTP.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../helpers/db.ts';
import { postReviews } from '../helpers/reviews.ts';
import { startWorker } from '../helpers/worker.ts';
import { ConflictError, NotFoundError, Plaudit } from '../../sdk/src/index.ts';
import { client, publicClient, streamText } from './helpers.ts';

let t: Tenant;
let plaudit: Plaudit;
let formId: string;
let reviewIds: string[];

beforeAll(async () => {
  t = await createTenant();
  plaudit = client(t);
  formId = (await plaudit.reviewForms.create({ name: 'SDK form' })).id;
  reviewIds = await postReviews(formId, `sdk-res-${t.org.id}`, [
    [5, 'Superb', 'Arrived quickly, works well', 'Ann'],
    [3, null, 'Fine, nothing special', 'Bob'],
    [1, 'Broken', 'Broke on the second day', 'Cy'],
  ]);
});

describe('reviews', () => {
  it('lists with filters, gets one, moderates it and reads its history and the chain', async () => {
    const page = await plaudit.reviews.list({ min_rating: 3 });
    expect(page.meta).toEqual({ total: 2, page: 1, limit: 20, totalPages: 1 });
    expect(page.data.map((r) => r.rating).sort()).toEqual([3, 5]);
    const review = await plaudit.reviews.get(reviewIds[2]);
    expect(review).toMatchObject({ id: reviewIds[2], rating: 1, title: 'Broken', is_hidden: false });

    const hidden = await plaudit.reviews.moderate(review.id, { action: 'hide', reason: 'Off-topic' });
    expect(hidden.is_hidden).toBe(true);
    const replied = await plaudit.reviews.reply(review.id, { content: 'Sorry, a replacement is on its way.' });
    expect(replied.reply).toMatchObject({ content: 'Sorry, a replacement is on its way.' });
    await plaudit.reviews.withdrawReply(review.id);
    expect((await plaudit.reviews.get(review.id)).reply).toBeNull();
    const history = await plaudit.reviews.moderationHistory(review.id);
    expect(history.data).toEqual([
      expect.objectContaining({ action: 'withdraw_reply', reason: null }),
      expect.objectContaining({ action: 'reply', reason: 'Sorry, a replacement is on its way.' }),
      expect.objectContaining({ action: 'hide', reason: 'Off-topic', actor: `api_key:${t.keyIds.admin}` }),
    ]);
    const chain = await plaudit.reviews.moderationChain();
    expect(chain).toMatchObject({
      valid: true,
      entries: expect.any(Number),
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await plaudit.reviews.moderationChain({ entries: chain.entries, head: chain.head! })).earlier_head)
      .toMatchObject({ matches: true });
  });

  it("lists the key's own organization's reviews without knowing its id", async () => {
    const requests: string[] = [];
    const byKey = new Plaudit({
      apiKey: t.keys.read,
      baseUrl: inject('apiUrl'),
      fetch: (input, init) => {
        requests.push(new URL(String(input)).pathname);
        return fetch(input, init);
      },
    });
    const page = await byKey.reviews.listForKey({ min_rating: 3 });
    expect(page.data.map((r) => r.rating).sort()).toEqual([3, 5]);
    expect(await byKey.reviews.listForKey({ limit: 1 }).toArray()).toHaveLength(3);
    expect(requests.every((p) => p === '/api/v1/reviews')).toBe(true);
  });

  it('verifies a review with its e-mailed token, without a key', async () => {
    const emailForm = await plaudit.reviewForms.create({ name: 'By e-mail', verification_mode: 'email' });
    const review = await publicClient().reviews.submit({
      form_id: emailForm.id,
      rating: 5,
      content: `Verified through the SDK ${crypto.randomUUID()}`,
      reviewer_name: 'Vi',
      reviewer_email: 'vi@example.com',
    });
    const [mail] =
      await db`select data->>'token' as token from plaudit.email_outbox where data->>'review_id' = ${review.id}`;
    expect(await publicClient().public.verify(mail.token)).toEqual({ status: 'verified' });
    expect((await plaudit.reviews.get(review.id)).verification_status).toBe('verified');
    await expect(publicClient().public.verify(mail.token)).rejects.toBeInstanceOf(ConflictError);
  });

  it('submits a review without a key', async () => {
    const anonymous = publicClient();
    const review = await anonymous.reviews.submit({
      form_id: formId,
      rating: 4,
      content: `Submitted through the SDK ${crypto.randomUUID()}`,
      reviewer_name: 'Dee',
      reviewer_email: 'dee@example.com',
    });
    expect(review).toMatchObject({ rating: 4, verification_status: 'unverified', form_id: formId });
    expect((await plaudit.reviews.get(review.id)).reviewer_name).toBe('Dee');
  });
});

describe('review forms', () => {
  it('creates, lists, gets, updates and deletes', async () => {
    const form = await plaudit.reviewForms.create({
      name: 'After delivery',
      verification_mode: 'manual',
      custom_fields: [{ key: 'product', label: 'Product', type: 'select', required: true, options: ['Mug', 'Cup'] }],
    });
    expect(form).toMatchObject({ name: 'After delivery', verification_mode: 'manual', is_active: true });
    expect(form.submission_url).toContain(`/forms/${form.id}`);
    expect((await plaudit.reviewForms.list()).data.map((f) => f.id)).toContain(form.id);
    expect((await plaudit.reviewForms.get(form.id)).custom_fields[0]).toMatchObject({ key: 'product' });
    expect(await plaudit.reviewForms.update(form.id, { is_active: false })).toMatchObject({ is_active: false });
    await expect(plaudit.reviewForms.delete(form.id)).resolves.toBeUndefined();
    await expect(plaudit.reviewForms.get(form.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('organization', () => {
  it('gets and updates the organization, lists members, invites and withdraws', async () => {
    expect(await plaudit.organization.get()).toMatchObject({ id: t.org.id, slug: t.org.slug });
    expect(await plaudit.organization.update({ website: 'https://shop.example' })).toMatchObject({
      website: 'https://shop.example',
    });
    await db`insert into plaudit.members (org_id, email, name, role) values (${t.org.id}, 'owner@example.com', 'Olive', 'owner')`;
    expect((await plaudit.organization.members()).data).toEqual([
      expect.objectContaining({ email: 'owner@example.com', role: 'owner' }),
    ]);
    const invitation = await plaudit.organization.invite({ email: 'new.colleague@example.com', role: 'member' });
    expect(invitation).toMatchObject({ email: 'new.colleague@example.com', status: 'pending' });
    await expect(plaudit.organization.invite({ email: 'new.colleague@example.com', role: 'member' }))
      .rejects.toBeInstanceOf(ConflictError);
    expect((await plaudit.organization.invitations()).data.map((i) => i.id)).toEqual([invitation.id]);
    await plaudit.organization.withdrawInvitation(invitation.id);
    expect((await plaudit.organization.invitations()).data[0].status).toBe('revoked');
  });

  it("changes a member's role and removes a member; the last owner stays", async () => {
    const [member] = await db`
      insert into plaudit.members (org_id, email, name, role) values (${t.org.id}, 'max@example.com', 'Max', 'member')
      returning id`;
    expect(await plaudit.organization.updateMember(member.id, { role: 'admin' })).toMatchObject({
      id: member.id,
      email: 'max@example.com',
      role: 'admin',
    });
    const owner = (await plaudit.organization.members()).data.find((m) => m.role === 'owner')!;
    await expect(plaudit.organization.updateMember(owner.id, { role: 'member' })).rejects.toBeInstanceOf(ConflictError);
    await expect(plaudit.organization.removeMember(owner.id)).rejects.toBeInstanceOf(ConflictError);
    const removed = await plaudit.organization.removeMember(member.id).withResponse();
    expect(removed).toMatchObject({ data: undefined, response: { status: 204 } });
    expect((await plaudit.organization.members()).data.map((m) => m.id)).not.toContain(member.id);
    await expect(plaudit.organization.removeMember(member.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('exports', () => {
  it('creates, waits, lists, gets and downloads a stream', async () => {
    const worker = await startWorker([t.org.id]);
    try {
      const job = await plaudit.exports.createAndWait({ format: 'csv' }, { pollIntervalMs: 50 });
      expect(job).toMatchObject({ status: 'completed', row_count: expect.any(Number) });
      expect(job.row_count).toBeGreaterThanOrEqual(3);
      expect((await plaudit.exports.get(job.id)).status).toBe('completed');
      expect((await plaudit.exports.list({ limit: 5 })).data.map((j) => j.id)).toContain(job.id);
      const stream = await plaudit.exports.download(job.id);
      expect(stream).toBeInstanceOf(ReadableStream);
      const csv = await streamText(stream);
      expect(csv.split('\n')[0]).toContain('reviewer_name');
      expect(csv).toContain('Arrived quickly, works well');
      const pending = await plaudit.exports.create({ format: 'json', filters: { rating: 5 } });
      expect(pending.status).toMatch(/pending|processing|completed/);
    } finally {
      await worker.stop();
    }
  });
});

describe('public profile and public data', () => {
  it('reads and changes the settings, then reads the public pages without a key', async () => {
    expect(await plaudit.publicProfile.get()).toMatchObject({ enabled: true });
    const settings = await plaudit.publicProfile.update({
      description: 'Mugs and cups',
      embed: { layout: 'grid', min_rating: 3 },
    });
    expect(settings).toMatchObject({ description: 'Mugs and cups', embed: { layout: 'grid', min_rating: 3 } });

    const pub = publicClient();
    expect(await pub.public.embed(t.org.slug)).toMatchObject({ slug: t.org.slug, layout: 'grid', min_rating: 3 });
    const profile = await pub.public.profile(t.org.slug);
    expect(profile).toMatchObject({ slug: t.org.slug, description: 'Mugs and cups' });
    expect(profile.review_count).toBeGreaterThanOrEqual(2);
    const widget = await pub.public.reviews(t.org.slug, { limit: 10 });
    expect(widget.data.every((r) => r.rating >= 3)).toBe(true);
    const all = await pub.public.profileReviews(t.org.slug);
    expect(all.meta.total).toBe(profile.review_count);
    expect(JSON.stringify(all.data)).not.toContain('reviewer_email');
    await expect(pub.public.profile(`no-such-${t.org.slug}`)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('fragments', () => {
  it("answers the business's and a product's fragment as HTML, as asked, without a key", async () => {
    await plaudit.products.create({ external_id: 'FRAG-1', name: 'Fragment mug' });
    const pub = publicClient();
    const business = await pub.fragments.get(t.org.slug, { language: 'de', limit: 2, layout: 'grid' });
    expect(business).toMatch(/^<div class="plaudit-fragment" data-plaudit-widget data-slug="/);
    expect(business).toContain('class="w grid ');
    expect(business).toContain('Bewertungen');
    const product = await pub.fragments.get(t.org.slug, { product: 'FRAG-1', theme: 'dark' });
    expect(product).toContain('data-product="FRAG-1"');
    expect(product).toContain('class="w list dark"');
    expect(product).toContain('<script type="application/ld+json">');
    await expect(pub.fragments.get(t.org.slug, { product: 'NO-SUCH' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(pub.fragments.get(t.org.slug, { limit: 21 })).rejects.toMatchObject({ status: 400 });
  });
});

describe('api keys', () => {
  it('creates, lists, rotates and revokes', async () => {
    const created = await plaudit.apiKeys.create({ name: 'CI', scope: 'read', rate_limit_per_minute: 100 });
    expect(created.key).toMatch(/^rk_/);
    const listed = await plaudit.apiKeys.list();
    expect(listed.data.map((k) => k.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    // A grace period keeps the old key working beside the new one.
    const graced = await plaudit.apiKeys.rotate(created.id, { expires_in_seconds: 3600 });
    const withOldKey = client({ ...t, keys: { ...t.keys, read: created.key } }, 'read');
    expect((await withOldKey.organization.get()).id).toBe(t.org.id);
    const rotated = await plaudit.apiKeys.rotate(graced.id);
    expect(rotated).toMatchObject({ name: 'CI', scope: 'read', key: expect.stringMatching(/^rk_/) });
    expect(rotated.key).not.toBe(graced.key);
    await expect(client({ ...t, keys: { ...t.keys, read: graced.key } }, 'read').organization.get())
      .rejects.toMatchObject({ status: 401 });
    const withNewKey = client({ ...t, keys: { ...t.keys, read: rotated.key } }, 'read');
    expect((await withNewKey.organization.get()).id).toBe(t.org.id);
    await plaudit.apiKeys.revoke(rotated.id);
    await expect(withNewKey.organization.get()).rejects.toMatchObject({ status: 401 });
    expect((await plaudit.apiKeys.list()).data.map((k) => k.id)).not.toContain(rotated.id);
  });
});

describe('verification', () => {
  it('verifies by purchase proof, approves and rejects', async () => {
    const proofForm = await plaudit.reviewForms.create({ name: 'Proof', verification_mode: 'purchase_proof' });
    expect(await plaudit.verification.loadOrders({ orders: [{ order_id: 'A-100' }, { order_id: 'A-101' }] }))
      .toEqual({ received: 2, inserted: 2, updated: 0 });
    const manualForm = await plaudit.reviewForms.create({ name: 'Manual', verification_mode: 'manual' });
    const [byOrder] = await postReviews(proofForm.id, `sdk-proof-${t.org.id}`, [[4, null, 'Bought it', 'Eve']]);
    const [toApprove, toReject] = await postReviews(manualForm.id, `sdk-manual-${t.org.id}`, [
      [5, null, 'Approve me', 'Fay'],
      [2, null, 'Reject me', 'Gus'],
    ]);
    expect((await plaudit.reviews.get(byOrder)).verification_status).toBe('pending');
    expect(await plaudit.verification.verify({ review_id: byOrder, order_id: 'A-100' }))
      .toMatchObject({ id: byOrder, verification_status: 'verified' });
    expect(await plaudit.verification.approve({ review_id: toApprove, reason: 'Checked' }))
      .toMatchObject({ verification_status: 'verified' });
    expect(await plaudit.verification.reject({ review_id: toReject }))
      .toMatchObject({ verification_status: 'rejected' });
    await expect(plaudit.verification.approve({ review_id: toReject })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('review requests', () => {
  it('creates one and a bulk, lists, gets, reads stats, settings and the suppression list', async () => {
    const request = await plaudit.reviewRequests.create({ email: 'carol@example.com', name: 'Carol', form_id: formId });
    expect(request).toMatchObject({ email: 'carol@example.com', status: 'queued', form_id: formId });
    expect((await plaudit.reviewRequests.get(request.id)).events[0]).toMatchObject({ type: 'queued' });

    const key = crypto.randomUUID();
    const rows = [
      { email: 'dan@example.com', name: 'Dan', form_id: formId },
      { email: 'not-an-address', name: 'Nobody', form_id: formId },
    ];
    const bulk = await plaudit.reviewRequests.bulk(rows, { idempotencyKey: key });
    expect(bulk.accepted).toBe(1);
    expect(bulk.rejected).toEqual([{ index: 1, message: expect.stringContaining('email') }]);
    // The same key again: the first answer, nothing sent twice.
    const again = await plaudit.reviewRequests.bulk({ requests: rows }, { idempotencyKey: key });
    expect(again).toEqual(bulk);
    expect(plaudit.lastResponse!.headers.get('idempotent-replayed')).toBe('true');

    const list = await plaudit.reviewRequests.list({ form_id: formId });
    expect(list.meta.total).toBe(2);
    const stats = await plaudit.reviewRequests.stats();
    expect(stats).toMatchObject({ total: 2, by_status: expect.objectContaining({ queued: 2 }) });

    expect(await plaudit.reviewRequests.updateSettings({ daily_quota: 500 })).toMatchObject({ daily_quota: 500 });
    expect(await plaudit.reviewRequests.settings()).toMatchObject({ daily_quota: 500, used_today: 2 });

    const suppressed = await plaudit.reviewRequests.suppress('gone@example.com');
    expect(suppressed).toMatchObject({ email: 'gone@example.com', reason: 'manual' });
    expect((await plaudit.reviewRequests.suppressions({ email: 'gone@example.com' })).data).toHaveLength(1);
    await plaudit.reviewRequests.unsuppress(suppressed.id);
    expect((await plaudit.reviewRequests.suppressions()).meta.total).toBe(0);
  });
});

describe('transparency', () => {
  it("reads a year's DSA transparency figures, as JSON and as CSV", async () => {
    const report = await plaudit.transparency.dsa(2024);
    expect(report).toMatchObject({ year: 2024, org_id: t.org.id, notices: { received: { total: 0 } } });
    const csv = await plaudit.transparency.dsaCsv(2024);
    expect(csv.split('\r\n')[0]).toBe('year,section,figure,ground_type,ground,automated,value');
    expect(csv).toContain('2024,notices,received_total,,,,0\r\n');
  });
});
