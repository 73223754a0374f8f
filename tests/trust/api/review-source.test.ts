// Where each review came from: `form` for the API and the hosted form, `invitation` for a review
// request's page; the Review and the public items say so, the CSV export has the column, and the
// database keeps it as written.
import { describe, expect, inject, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, postForm, requestsPath } from '../../helpers/review-requests.ts';

/** A review sent to the form through the API, as a shop's backend sends one. */
const sendThroughApi = (formId: string, content: string) =>
  api('POST', '/api/v1/reviews', {
    body: { form_id: formId, rating: 4, content, reviewer_name: 'Al', reviewer_email: 'al@example.com' },
  });

describe('review source', () => {
  it('is form for the API, invitation for a request page, in the Review and the public items', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const sent = await sendThroughApi(form.id, 'Through the API.');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ source: 'form', source_platform: null });

    const request = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'bea@example.com', name: 'Bea', form_id: form.id },
    });
    expect(request.status).toBe(201);
    const [{ token }] = await db`select plaudit.review_request_token(${request.body.id}) as token`;
    const page = await postForm(`${inject('apiUrl')}/r/${token}`, {
      rating: '5',
      content: 'Through the invitation.',
      reviewer_name: 'Bea',
      reviewer_email: 'bea@example.com',
    });
    expect(page.status).toBe(201);
    const [invited] =
      await db`select id from plaudit.reviews where org_id = ${t.org.id} and content = 'Through the invitation.'`;
    const one = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${invited.id}`, { key: t.keys.read });
    expect(one.body).toMatchObject({ source: 'invitation', source_platform: null });

    const pub = await api('GET', `/api/v1/public/profiles/${t.org.slug}/reviews`);
    expect(pub.status).toBe(200);
    expect(pub.body.data.map((r: Record<string, unknown>) => [r.content, r.source, r.source_platform])).toEqual([
      ['Through the invitation.', 'invitation', null],
      ['Through the API.', 'form', null],
    ]);
  });

  it('is written once: an update of it is refused, and an import needs its platform', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const sent = await sendThroughApi(form.id, 'Kept as sent.');
    await expect(db`update plaudit.reviews set source = 'invitation' where id = ${sent.body.id}`)
      .rejects.toThrow('a review cannot be rewritten: only moderation and verification may change it');
    await expect(db`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, source)
      values (${t.org.id}, ${form.id}, 3, 'x', 'y', 'y@example.com', 'unverified', 'import')`)
      .rejects.toThrow('reviews_source_platform_only_for_imports');
    const [imported] = await db`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                                   source, source_platform, imported_as_verified)
      values (${t.org.id}, ${form.id}, 3, 'Imported.', 'Yo', 'yo@example.com', 'unverified', 'import', 'yotpo', true)
      returning id`;
    const one = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${imported.id}`, { key: t.keys.read });
    expect(one.body).toMatchObject({ source: 'import', source_platform: 'yotpo', verification_status: 'unverified' });
  });
});
