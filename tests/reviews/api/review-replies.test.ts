// PUT/DELETE /organizations/:orgId/reviews/:id/reply: the business's public reply to a review.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { postReviews } from '../../helpers/reviews.ts';

let t: Tenant;
let other: Tenant;
let reviewId: string;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Replies' },
  });
  [reviewId] = await postReviews(form.body.id, `replies-${t.org.id}`, [[2, 'Late', 'It came a week late', 'Ann']]);
});

const replyPath = (id = reviewId, tenant = t) => `/api/v1/organizations/${tenant.org.id}/reviews/${id}/reply`;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('replies to reviews', () => {
  it('writes, shows, edits and withdraws the reply; the review stays as it was', async () => {
    const before =
      (await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, { key: t.keys.read })).body;
    expect(before.reply).toBeNull();

    const put = await api('PUT', replyPath(), {
      key: t.keys.write,
      body: { content: '  Sorry! We changed couriers.  ' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      ...before,
      reply: {
        content: 'Sorry! We changed couriers.',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const got = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, { key: t.keys.read });
    expect(got.body.reply).toEqual(put.body.reply);
    const list = await api('GET', `/api/v1/organizations/${t.org.id}/reviews`, { key: t.keys.read });
    expect(list.body.data.find((r: any) => r.id === reviewId).reply).toEqual(put.body.reply);

    const edit = await api('PUT', replyPath(), { key: t.keys.write, body: { content: 'Refund sent.' } });
    expect(edit.body.reply.content).toBe('Refund sent.');
    expect(edit.body.reply.created_at).toBe(put.body.reply.created_at);
    expect(Date.parse(edit.body.reply.updated_at)).toBeGreaterThanOrEqual(Date.parse(put.body.reply.updated_at));

    const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'checking' },
    });
    expect(hidden.body.reply).toEqual(edit.body.reply);
    await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'checked' },
    });

    expect((await api('DELETE', replyPath(), { key: t.keys.write })).status).toBe(204);
    const after = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, { key: t.keys.read });
    expect(after.body).toEqual({ ...before, is_hidden: false, reply: null });
    const again = await api('DELETE', replyPath(), { key: t.keys.write });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(errorBody(404, 'Not Found', 'This review has no reply'));

    const history = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderation-history`, {
      key: t.keys.read,
    });
    expect(history.body.data.map((e: any) => [e.action, e.reason])).toEqual([
      ['withdraw_reply', null],
      ['unhide', 'checked'],
      ['hide', 'checking'],
      ['edit_reply', 'Refund sent.'],
      ['reply', 'Sorry! We changed couriers.'],
    ]);

    const events = await db`
      select data from plaudit.events where type = 'review.replied' and data ->> 'id' = ${reviewId} order by created_at`;
    expect(events.map((e) => e.data.action)).toEqual(['created', 'updated', 'withdrawn']);
  });

  it('refuses a read key, another organization and an empty reply, changing nothing', async () => {
    expect((await api('PUT', replyPath(), { key: t.keys.read, body: { content: 'x' } })).status).toBe(403);
    expect((await api('PUT', replyPath(reviewId, other), { key: other.keys.write, body: { content: 'x' } })).status)
      .toBe(404);
    const empty = await api('PUT', replyPath(), { key: t.keys.write, body: { content: '   ' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([{ field: 'content', code: 'too_short', message: 'must not be empty' }]);
    const unknown = await api('PUT', replyPath(crypto.randomUUID()), { key: t.keys.write, body: { content: 'x' } });
    expect(unknown.status).toBe(404);
    expect(await db`select 1 from plaudit.review_replies where org_id = ${other.org.id}`).toHaveLength(0);
  });

  it('refuses a pending or a rejected review, which are not public: 409, nothing written; approved, it takes one', async () => {
    const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
      key: t.keys.write,
      body: { name: 'Approved first', verification_mode: 'manual' },
    });
    const [pending, rejected] = await postReviews(form.body.id, `unpublished-${t.org.id}`, [
      [4, 'Waiting', 'Not approved yet', 'Pat'],
      [1, 'Refused', 'Not a customer', 'Rex'],
    ]);
    const reject = await api('POST', `/api/v1/organizations/${t.org.id}/verification/reject`, {
      key: t.keys.write,
      body: { review_id: rejected },
    });
    expect(reject.status).toBe(200);
    for (const id of [pending, rejected]) {
      const res = await api('PUT', replyPath(id), { key: t.keys.write, body: { content: 'Thank you!' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(errorBody(409, 'Conflict', 'Only a published review takes a public reply'));
    }
    expect(await db`select 1 from plaudit.review_replies where review_id in (${pending}, ${rejected})`).toHaveLength(0);
    for (const id of [pending, rejected]) {
      const history = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${id}/moderation-history`, {
        key: t.keys.read,
      });
      expect(history.body.data.map((e: { action: string }) => e.action)).not.toContain('reply');
    }

    const approve = await api('POST', `/api/v1/organizations/${t.org.id}/verification/approve`, {
      key: t.keys.write,
      body: { review_id: pending },
    });
    expect(approve.status).toBe(200);
    const replied = await api('PUT', replyPath(pending), { key: t.keys.write, body: { content: 'Thank you!' } });
    expect(replied.status).toBe(200);
    expect(replied.body.reply.content).toBe('Thank you!');
  });

  it('shows the reply on the public routes, whose ETags move with it', async () => {
    const feed = `/api/v1/public/profiles/${t.org.slug}/reviews`;
    const before = await api('GET', feed);
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;
    await api('PUT', replyPath(), { key: t.keys.write, body: { content: 'Thanks for the patience.' } });
    const after = await api('GET', feed, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const shown = after.body.data.find((r: any) => r.id === reviewId);
    expect(shown.reply).toEqual({
      content: 'Thanks for the patience.',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const widget = await api('GET', `/api/v1/public/reviews/${t.org.slug}`);
    expect(widget.body.data.find((r: any) => r.id === reviewId).reply.content).toBe('Thanks for the patience.');
    const embed = await api('GET', `/api/v1/public/embed/${t.org.slug}`);
    expect(embed.body.reviews.find((r: any) => r.id === reviewId).reply.content).toBe('Thanks for the patience.');
    const page = await api('GET', `/p/${t.org.slug}`);
    expect(page.body).toContain(`Reply from ${t.org.name}`);
    expect(page.body).toContain('<p>Thanks for the patience.</p>');
  });
});
