// Answers to a form's custom fields go back to the organization wherever a review does (the
// submission's answer, reads, moderation, review.created, exports: tests/delivery/api/exports.test.ts),
// and never to the public: they may hold what a reviewer told the business alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const { call } = ownApiServer();
let t: Tenant;
let formId: string;
let reviewId: string;
let reviewContent: string;

const ANSWERS = { size: 'L', gift: true, visits: 2, note: 'Wrapped, please' };

beforeAll(async () => {
  t = await createTenant();
  formId = (await createForm(call, t, {
    custom_fields: [
      { key: 'size', label: 'Size', type: 'select', required: true, options: ['S', 'L'] },
      { key: 'gift', label: 'A gift?', type: 'boolean' },
      { key: 'visits', label: 'Visits', type: 'number' },
      { key: 'note', label: 'A note', type: 'text' },
    ],
  })).id;
  const review = await submitOk(call, formId, {
    custom_fields: { ...ANSWERS, note: '  Wrapped, please  ', unknown_key: 'dropped' },
  }) as { id: string; content?: string; custom_fields?: unknown };
  reviewId = review.id;
  reviewContent = review.content!;
  expect(review.custom_fields).toEqual(ANSWERS);
  const enabled = await call('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { enabled: true },
  });
  expect(enabled.status).toBe(200);
});

describe('custom-field answers', () => {
  it('are in every review the organization reads', async () => {
    const one = await call('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, { key: t.keys.read });
    expect(one.body.custom_fields).toEqual(ANSWERS);
    const list = await call('GET', `/api/v1/organizations/${t.org.id}/reviews`, { key: t.keys.read });
    expect(list.body.data.map((r: any) => r.custom_fields)).toEqual([ANSWERS]);
    const moderated = await call('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'checking' },
    });
    expect(moderated.body.custom_fields).toEqual(ANSWERS);
    await call('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'checked' },
    });
  });

  it('are in review.created', async () => {
    const [event] = await db`
      select data from plaudit.events where type = 'review.created' and data ->> 'id' = ${reviewId}`;
    expect(event.data.custom_fields).toEqual(ANSWERS);
  });

  it('are never public', async () => {
    const slug = t.org.slug;
    for (
      const path of [
        `/api/v1/public/reviews/${slug}`,
        `/api/v1/public/profiles/${slug}`,
        `/api/v1/public/embed/${slug}`,
        `/api/v1/public/profiles/${slug}/reviews`,
        `/p/${slug}`,
      ]
    ) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      // The review is there, its answers are not.
      expect(text, path).toContain(/embed|profiles\/[^/]+$/.test(path) ? slug : reviewContent.slice(0, 20));
      expect(text, path).not.toMatch(/custom_fields|Wrapped, please/);
    }
  });
});
