// PATCH /organizations/:orgId/reviews/:id/media/:mediaId/moderate: the organization hides and shows
// a review's photo; the public stops and starts seeing it, the trail and review.moderated record it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { fetchFile, jpegWithGps, upload } from '../../helpers/media.ts';
import { reviewBody } from '../../helpers/reviews.ts';

let t: Tenant;
let other: Tenant;
let reviewId: string;
let media: { id: string; url: string; thumbnail_url: string };

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
    key: t.keys.write,
    body: { name: 'Moderated photos' },
  });
  const sent = await api('POST', '/api/v1/reviews', { body: reviewBody(form.body.id) });
  reviewId = sent.body.id;
  media = (await upload(reviewId, await jpegWithGps(120, 80), { token: sent.body.media_upload.token })).body;
});

const moderate = (body: unknown, key = t.keys.write, tenant = t, mediaId = media.id) =>
  api('PATCH', `/api/v1/organizations/${tenant.org.id}/reviews/${reviewId}/media/${mediaId}/moderate`, { key, body });
const publicMedia = async () => {
  const feed = await api('GET', `/api/v1/public/profiles/${t.org.slug}/reviews`);
  return feed.body.data.find((r: { id: string }) => r.id === reviewId).media;
};

describe("moderating a review's media", () => {
  it('hides and shows an item: the Review, the public item, its file, the trail, the event and the CDN', async () => {
    expect(await publicMedia()).toHaveLength(1);
    // Served once, so that the API holds it as visible: the hide must still take it away at once.
    expect((await fetchFile(media.url)).status).toBe(200);
    expect((await fetchFile(media.thumbnail_url)).status).toBe(200);
    await db`delete from plaudit.cdn_purges where org_id = ${t.org.id}`;

    const hidden = await moderate({ action: 'hide', reason: 'Shows a face' });
    expect(hidden.status).toBe(200);
    expect(hidden.body.id).toBe(reviewId);
    expect(hidden.body.is_hidden).toBe(false);
    expect(hidden.body.media).toEqual([{ ...media, is_hidden: true }]);
    expect(await publicMedia()).toEqual([]);
    expect((await fetchFile(media.url)).status).toBe(404);
    expect((await fetchFile(media.thumbnail_url)).status).toBe(404);
    const [purge] = await db`select status from plaudit.cdn_purges where org_id = ${t.org.id}`;
    expect(purge.status).toBe('pending');

    expect(await moderate({ action: 'hide', reason: 'Again' })).toMatchObject({
      status: 409,
      body: errorBody(409, 'Conflict', 'Media is already hidden'),
    });

    const shown = await moderate({ action: 'unhide', reason: 'Blurred by the reviewer' });
    expect(shown.status).toBe(200);
    expect(shown.body.media[0].is_hidden).toBe(false);
    expect(await publicMedia()).toHaveLength(1);
    expect((await fetchFile(media.url)).status).toBe(200);

    const history = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderation-history`, {
      key: t.keys.read,
    });
    expect(history.body.data.map((e: any) => [e.action, e.reason, e.actor])).toEqual([
      ['unhide_media', `media ${media.id}: Blurred by the reviewer`, `api_key:${t.keyIds.write}`],
      ['hide_media', `media ${media.id}: Shows a face`, `api_key:${t.keyIds.write}`],
    ]);

    const events = await db`
      select data from plaudit.events
       where org_id = ${t.org.id} and type = 'review.moderated' and data->>'id' = ${reviewId} order by created_at`;
    expect(events.map((e) => [e.data.action, e.data.is_hidden, e.data.media, e.data.reason])).toEqual([
      ['hide_media', false, { id: media.id, type: 'image', is_hidden: true }, 'Shows a face'],
      ['unhide_media', false, { id: media.id, type: 'image', is_hidden: false }, 'Blurred by the reviewer'],
    ]);
  });

  it('answers 404 for an item it does not have, 403 for a read key or another organization, 422 for a bad body', async () => {
    expect((await moderate({ action: 'hide', reason: 'x' }, t.keys.write, t, crypto.randomUUID())).body).toEqual(
      errorBody(404, 'Not Found', 'Media not found'),
    );
    expect((await moderate({ action: 'hide', reason: 'x' }, t.keys.read)).status).toBe(403);
    expect((await moderate({ action: 'hide', reason: 'x' }, other.keys.write)).status).toBe(403);
    expect((await moderate({ action: 'hide', reason: 'x' }, other.keys.write, other)).body).toEqual(
      errorBody(404, 'Not Found', 'Media not found'),
    );
    expect((await moderate({ action: 'remove', reason: 'x' })).status).toBe(422);
    expect((await moderate({ action: 'hide' })).status).toBe(422);
    const [row] = await db`select is_hidden from plaudit.review_media where id = ${media.id}`;
    expect(row.is_hidden).toBe(false);
  });

  it("takes a photo's file away at once when its review is hidden, though the API served it a moment before", async () => {
    const form = await api('POST', `/api/v1/organizations/${t.org.id}/review-forms`, {
      key: t.keys.write,
      body: { name: 'Hidden with its review' },
    });
    const sent = await api('POST', '/api/v1/reviews', { body: reviewBody(form.body.id) });
    const item = (await upload(sent.body.id, await jpegWithGps(90, 60), { token: sent.body.media_upload.token })).body;
    expect((await fetchFile(item.url)).status).toBe(200);
    const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${sent.body.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Off topic' },
    });
    expect(hidden.status).toBe(200);
    expect((await fetchFile(item.url)).status).toBe(404);
    expect((await fetchFile(item.thumbnail_url)).status).toBe(404);
  });
});
