// Moderating reviews: hiding and unhiding with a reason, the moderation trail, concurrency, and
// the database's refusal to delete or rewrite a review.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;

const reviewsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/reviews`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('moderation and its trail', () => {
  let t: Tenant;
  let form: { id: string };
  beforeAll(async () => {
    t = await createTenant();
    form = await createForm(call, t);
  });
  const moderate = (id: string, body: unknown, key = t.keys.write) =>
    call('PATCH', `${reviewsPath(t)}/${id}/moderate`, { key, body });

  it('hides and unhides with a reason; 409 when nothing would change; each change in the history', async () => {
    const review = await submitOk(call, form.id);
    const hide = await moderate(review.id, { action: 'hide', reason: 'Off-topic' });
    expect(hide.status).toBe(200);
    expect(hide.body).toMatchObject({ id: review.id, is_hidden: true, verification_status: 'unverified' });
    const again = await moderate(review.id, { action: 'hide', reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /^Review is already hidden$/));
    const unhide = await moderate(review.id, { action: 'unhide', reason: 'Appeal accepted' }, t.keys.admin);
    expect(unhide.body.is_hidden).toBe(false);
    const twice = await moderate(review.id, { action: 'unhide', reason: 'x' });
    expect(twice.body).toEqual(errorBody(409, 'Conflict', /^Review is not hidden$/));

    const history = await call('GET', `${reviewsPath(t)}/${review.id}/moderation-history`, { key: t.keys.read });
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      data: [
        {
          id: expect.stringMatching(UUID),
          action: 'unhide',
          reason: 'Appeal accepted',
          actor: `api_key:${t.keyIds.admin}`,
          created_at: expect.stringMatching(/Z$/),
        },
        {
          id: expect.stringMatching(UUID),
          action: 'hide',
          reason: 'Off-topic',
          actor: `api_key:${t.keyIds.write}`,
          created_at: expect.stringMatching(/Z$/),
        },
      ],
      meta: { total: 2, page: 1, limit: 20, totalPages: 1 },
    });
    const page = await call('GET', `${reviewsPath(t)}/${review.id}/moderation-history?limit=1&page=2`, {
      key: t.keys.read,
    });
    expect(page.body.data.map((e: { action: string }) => e.action)).toEqual(['hide']);

    const events = await db`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'review.moderated' and data->>'id' = ${review.id}
      order by created_at, (data->>'moderated_at')`;
    expect(events.map((e) => [e.data.action, e.data.is_hidden, e.data.reason])).toEqual([
      ['hide', true, 'Off-topic'],
      ['unhide', false, 'Appeal accepted'],
    ]);
    expect(events[0].data.actor).toBe(`api_key:${t.keyIds.write}`);
  });

  it('refuses a bad body (422), a read key (403), another organization (403) and foreign ids (404)', async () => {
    const review = await submitOk(call, form.id);
    for (
      const [body, message] of [
        [{ action: 'hide' }, /^reason:/],
        [{ action: 'hide', reason: '' }, /^reason:/],
        [{ action: 'delete', reason: 'x' }, /^action:/],
        [{ reason: 'x' }, /^action:/],
        [{ action: 'hide', reason: 'x'.repeat(1001) }, /^reason:/],
      ] as const
    ) {
      const res = await moderate(review.id, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
    expect((await moderate(review.id, { action: 'hide', reason: 'x' }, t.keys.read)).body)
      .toEqual(errorBody(403, 'Forbidden', /write scope/));
    const stranger = await createTenant();
    const cross = await call('PATCH', `${reviewsPath(t)}/${review.id}/moderate`, {
      key: stranger.keys.admin,
      body: { action: 'hide', reason: 'x' },
    });
    expect(cross.status).toBe(403);
    for (const id of [review.id, crypto.randomUUID()]) {
      const res = await call('PATCH', `${reviewsPath(stranger)}/${id}/moderate`, {
        key: stranger.keys.write,
        body: { action: 'hide', reason: 'x' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
      const history = await call('GET', `${reviewsPath(stranger)}/${id}/moderation-history`, {
        key: stranger.keys.read,
      });
      expect(history.status).toBe(404);
    }
    const [row] = await db`select is_hidden from plaudit.reviews where id = ${review.id}`;
    expect(row.is_hidden).toBe(false);
    expect(await db`select 1 from plaudit.moderation_trail where review_id = ${review.id}`).toHaveLength(0);
  });

  it('50 concurrent toggles leave the state, the trail, the events and the statistics consistent', async () => {
    const review = await submitOk(call, form.id, { rating: 4 });
    const actions = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 'hide' : 'unhide'));
    const results = await Promise.all(
      actions.map((action) => moderate(review.id, { action, reason: `toggle ${action}` })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(ok.length).toBeGreaterThan(0);

    const trail =
      await db`select action, seq from plaudit.moderation_trail where review_id = ${review.id} order by seq`;
    expect(trail).toHaveLength(ok.length);
    trail.forEach((e, i) => expect(e.action).toBe(i % 2 === 0 ? 'hide' : 'unhide'));
    const [state] = await db`select is_hidden from plaudit.reviews where id = ${review.id}`;
    expect(state.is_hidden).toBe(trail.length % 2 === 1);
    const okHides = ok.filter((r) => r.body.is_hidden).length;
    expect(okHides - (ok.length - okHides)).toBe(state.is_hidden ? 1 : 0);
    const [{ n }] =
      await db`select count(*)::integer as n from plaudit.events where type = 'review.moderated' and data->>'id' = ${review.id}`;
    expect(n).toBe(ok.length);
    const [chain] = await db`select * from plaudit.verify_moderation_chain(${t.org.id})`;
    expect(chain).toMatchObject({ valid: true, problem: null });
    const [stats] =
      await db`select sum(public_count)::integer as c, sum(rating_4)::integer as r4 from plaudit.review_statistics where org_id = ${t.org.id}`;
    const [truth] =
      await db`select count(*)::integer as c, count(*) filter (where rating = 4)::integer as r4 from plaudit.reviews
                             where org_id = ${t.org.id} and not is_hidden and verification_status in ('verified', 'unverified')`;
    expect(stats).toEqual(truth);
  });

  it('the database refuses to delete or rewrite a review, even for its owner', async () => {
    const review = await submitOk(call, form.id);
    await expect(db`delete from plaudit.reviews where id = ${review.id}`).rejects.toThrow(/reviews cannot be deleted/);
    await expect(db`update plaudit.reviews set content = 'rewritten' where id = ${review.id}`).rejects.toThrow(
      /cannot be rewritten/,
    );
    await expect(db`update plaudit.reviews set verification_status = 'verified' where id = ${review.id}`).rejects
      .toThrow(/only move from pending/);
    expect((await call('DELETE', `${reviewsPath(t)}/${review.id}`, { key: t.keys.admin })).status).toBe(405);
  });
});
