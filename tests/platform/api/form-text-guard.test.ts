// The hosted pages' forms (urlencoded or multipart) get the text guard the JSON routes have: a
// field PostgreSQL cannot store (a NUL character) is a 422 in the contract's error format, naming
// the field, before the route runs, and nothing is stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, ownApiServer, postReviews } from '../../helpers/reviews.ts';

const server = ownApiServer();
let t: Tenant;
let formId: string;
let reviewId: string;

beforeAll(async () => {
  t = await createTenant();
  formId = (await createForm(server.call, t)).id;
  [reviewId] = await postReviews(formId, `guard-${t.org.id}`, [[5, 'Fine', 'A published review', 'Ann']]);
});

/** Posts the fields as an HTML form does: urlencoded (NUL as `%00`), or multipart. */
function post(path: string, fields: Record<string, string>, multipart = false) {
  let body: URLSearchParams | FormData = new URLSearchParams(fields);
  if (multipart) {
    body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
  }
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'x-forwarded-for': freshIp(), 'user-agent': 'Forms/1' },
    body,
  });
}

async function refusedNaming(res: Response, field: string) {
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual(errorBody(422, 'Unprocessable Entity', `${field}: must not contain NUL characters`));
}

const counts = async () => {
  const [row] = await db`
    select (select count(*)::int from plaudit.review_reports where review_id = ${reviewId}) as reports,
           (select helpful_count from plaudit.reviews where id = ${reviewId}) as helpful,
           (select count(*)::int from plaudit.reviews where form_id = ${formId}) as reviews`;
  return row;
};

describe('form bodies holding NUL', () => {
  it("the report form's details (urlencoded and multipart): 422 naming the field, no report", async () => {
    const before = await counts();
    const path = `/p/${t.org.slug}/reviews/${reviewId}/report`;
    await refusedNaming(await post(path, { reason: 'spam', details: '\u0000' }), 'details');
    await refusedNaming(await post(path, { reason: 'spam', details: 'a\u0000b' }, true), 'details');
    expect(await counts()).toEqual(before);
    // The same form without it is taken.
    expect((await post(path, { reason: 'spam', details: 'Clean' })).status).toBe(200);
  });

  it('the helpful form and the hosted review form: 422, no vote, no review', async () => {
    const before = await counts();
    await refusedNaming(await post(`/p/${t.org.slug}/reviews/${reviewId}/helpful`, { back: '/p/\u0000' }), 'back');
    const review = { rating: '5', title: 'Great', reviewer_name: 'Bo', reviewer_email: 'bo@example.com' };
    await refusedNaming(await post(`/forms/${formId}`, { ...review, content: 'Good\u0000' }), 'content');
    await refusedNaming(await post(`/forms/${formId}`, { ...review, content: 'Good', title: '\u0000' }, true), 'title');
    expect(await counts()).toEqual(before);
  });

  it("the e-mails' pages (a review request, an invitation, a verification, an unsubscription): 422 before the route", async () => {
    const token = 'x'.repeat(43);
    for (const path of [`/r/${token}`, `/invitations/${token}`, `/verify/${token}`, `/unsubscribe/${token}`]) {
      await refusedNaming(await post(path, { name: 'Ann\u0000', content: 'x' }), 'name');
    }
  });
});
