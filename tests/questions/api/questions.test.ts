// Questions and answers over HTTP (docs/questions.md): asking (202, confirmed by the e-mailed
// link), the public lists, the business's answers and moderation, a verified buyer's single-use
// answer link, helpful votes on answers, and another tenant's refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createProduct, type Product } from '../../helpers/products.ts';
import { askedAndConfirmed, mailedToken } from '../../helpers/questions.ts';

let t: Tenant;
let other: Tenant;
let mug: Product;
const ask = (body: Record<string, unknown>, slug = t.org.slug) =>
  api('POST', `/api/v1/public/questions/${slug}`, { body });

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  mug = await createProduct(api, t, { name: 'Mug' });
  // Two customers whose orders held the mug, and one whose order did not.
  await db`insert into plaudit.orders (org_id, order_id, email, name) values
    (${t.org.id}, 'Q-1', ${`bea-${t.org.slug}@example.com`}, 'Bea Buyer'),
    (${t.org.id}, 'Q-2', ${`cid-${t.org.slug}@example.com`}, 'Cid Buyer'),
    (${t.org.id}, 'Q-3', ${`dan-${t.org.slug}@example.com`}, 'Dan Other')`;
  await db`insert into plaudit.order_items (org_id, order_id, position, product_external_id) values
    (${t.org.id}, 'Q-1', 0, ${mug.external_id}), (${t.org.id}, 'Q-2', 0, ${mug.external_id}),
    (${t.org.id}, 'Q-3', 0, 'SOMETHING-ELSE')`;
});

describe('asking', () => {
  it('answers 202, mails the confirmation link, and shows the question only once confirmed', async () => {
    const email = `ann-${t.org.slug}@example.com`;
    const res = await ask({
      product_external_id: mug.external_id,
      question: 'Is it dishwasher safe?',
      name: 'Ann',
      email,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending_confirmation' });
    const path = `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`;
    expect((await api('GET', path)).body).toEqual({ data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });

    const token = await mailedToken('question_confirmation', email, 'confirm_url');
    const page = await api('GET', `/questions/confirm/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Confirm my question');
    expect((await api('GET', path)).body.data).toEqual([]); // opening the link confirms nothing

    expect((await api('POST', `/api/v1/public/question-confirmations/${token}`)).body).toEqual({ status: 'published' });
    const again = await api('POST', `/api/v1/public/question-confirmations/${token}`);
    expect(again.body).toEqual(errorBody(409, 'Conflict', 'This question is already confirmed'));
    const shown = await api('GET', path);
    expect(shown.body.data).toEqual([{
      id: expect.any(String),
      question: 'Is it dishwasher safe?',
      asker_name: 'Ann',
      created_at: expect.any(String),
      answers: [],
    }]);
    expect(shown.headers.get('etag')).toBeTruthy();
    const events = await db`select data from plaudit.events where org_id = ${t.org.id} and type = 'question.created'`;
    expect(events.map((e) => e.data.question)).toContain('Is it dishwasher safe?');
  });

  it('refuses bad input with exact messages, and changes nothing', async () => {
    const before = await db`select count(*)::int as n from plaudit.questions where org_id = ${t.org.id}`;
    const short = await ask({ question: 'Why?', name: 'Ann', email: 'ann@example.com' });
    expect(short.status).toBe(422);
    expect(short.body.errors[0]).toMatchObject({ field: 'question' });
    const noMail = await ask({ question: 'Is it dishwasher safe?', name: 'Ann', email: 'not-an-address' });
    expect(noMail.status).toBe(422);
    expect(noMail.body.errors[0]).toMatchObject({ field: 'email' });
    const noName = await ask({ question: 'Is it dishwasher safe?', name: '  ', email: 'ann@example.com' });
    expect(noName.body.errors[0]).toMatchObject({ field: 'name' });
    const product = await ask({
      product_external_id: 'NOPE',
      question: 'Is it dishwasher safe?',
      name: 'A',
      email: 'a@b.co',
    });
    expect(product.body).toEqual(errorBody(404, 'Not Found', 'Product not found'));
    const business = await ask(
      { question: 'Is it dishwasher safe?', name: 'A', email: 'a@b.co' },
      'no-such-business-x',
    );
    expect(business.body).toEqual(errorBody(404, 'Not Found', 'Business not found'));
    expect(await db`select count(*)::int as n from plaudit.questions where org_id = ${t.org.id}`).toEqual(before);
    const bad = await api('POST', '/api/v1/public/question-confirmations/wrong');
    expect(bad.body).toEqual(errorBody(404, 'Not Found', 'Confirmation link not found'));
  });
});

describe('answers', () => {
  let questionId: string;
  beforeAll(async () => {
    questionId = await askedAndConfirmed(
      t,
      `eve-${t.org.slug}@example.com`,
      'Does it keep coffee hot?',
      mug.external_id,
    );
  });

  it("publishes the business's answer at once, and never shows an address in public", async () => {
    const res = await api('POST', `/api/v1/organizations/${t.org.id}/questions/${questionId}/answers`, {
      key: t.keys.write,
      body: { content: '  For about an hour.  ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.answers).toEqual([expect.objectContaining({
      content: 'For about an hour.',
      author: 'business',
      author_name: t.org.name,
      is_hidden: false,
      helpful_count: 0,
    })]);
    expect(res.body.answered).toBe(true);
    expect(res.body.asker_email).toBe(`eve-${t.org.slug}@example.com`);
    const pub = await api('GET', `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`);
    expect(pub.body.data[0].id).toBe(questionId); // newest answered first
    expect(JSON.stringify(pub.body)).not.toContain('@');
    const events = await db`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'question.answered'`;
    expect(events.map((e) => e.data.answer.content)).toContain('For about an hour.');
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain('@');
  });

  it("lets a verified buyer answer once, through their own question's link only", async () => {
    const [asked] = await db<{ n: number }[]>`
      select count(*)::int as n from plaudit.email_outbox
       where template = 'question_for_buyer' and data ->> 'question_id' = ${questionId}`;
    expect(asked.n).toBe(2);
    const token = await mailedToken('question_for_buyer', `bea-${t.org.slug}@example.com`, 'answer_url');
    const page = await api('GET', `/answers/${token}`);
    expect(page.body).toContain('Does it keep coffee hot?');

    const res = await api('POST', `/api/v1/public/answers/${token}`, { body: { content: 'Yes, a good hour.' } });
    expect(res.status).toBe(201);
    const again = await api('POST', `/api/v1/public/answers/${token}`, { body: { content: 'Again.' } });
    expect(again.body).toEqual(errorBody(409, 'Conflict', 'This answer link has already been used'));
    const bad = await api('POST', `/api/v1/public/answers/${'x'.repeat(43)}`, { body: { content: 'Hi' } });
    expect(bad.body).toEqual(errorBody(404, 'Not Found', 'Answer link not found'));
    const empty = await api('POST', `/api/v1/public/answers/${token}`, { body: { content: ' ' } });
    expect(empty.status).toBe(422);

    const [row] =
      await db`select question_id, author, author_name from plaudit.question_answers where id = ${res.body.id}`;
    expect(row).toEqual({ question_id: questionId, author: 'verified_buyer', author_name: 'Bea' });
    const pub = await api('GET', `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`);
    const shown = pub.body.data.find((q: any) => q.id === questionId);
    expect(shown.answers.map((a: any) => [a.author, a.author_name])).toEqual([['business', t.org.name], [
      'verified_buyer',
      'Bea',
    ]]);
    expect(JSON.stringify(pub.body)).not.toContain('@');
  });

  it('counts a helpful vote once per network, and a reader revalidates to the new count', async () => {
    const list = `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`;
    const pub = await api('GET', list);
    const answerId = pub.body.data.find((q: any) => q.id === questionId).answers[0].id;
    const path = `/api/v1/public/questions/${t.org.slug}/${questionId}/answers/${answerId}/helpful`;
    expect((await api('POST', path)).body).toEqual({ helpful_count: 1 });
    // The vote moved the public version: the reader's ETag no longer matches, and the list has the count.
    const revalidated = await api('GET', list, { headers: { 'if-none-match': pub.headers.get('etag')! } });
    expect(revalidated.status).toBe(200);
    expect(revalidated.body.data.find((q: any) => q.id === questionId).answers[0].helpful_count).toBe(1);
    expect((await api('POST', path)).body).toEqual({ helpful_count: 1 });
    // A repeat changes nothing, the version included.
    const again = await api('GET', list, { headers: { 'if-none-match': revalidated.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const elsewhere = await api(
      'POST',
      `/api/v1/public/questions/${other.org.slug}/${questionId}/answers/${answerId}/helpful`,
    );
    expect(elsewhere.body).toEqual(errorBody(404, 'Not Found', 'Answer not found'));
  });

  it("keeps the business's answer one: writing again edits it in place, its votes kept, the old text in the trail", async () => {
    const path = `/api/v1/organizations/${t.org.id}/questions/${questionId}/answers`;
    const before =
      (await api('GET', `/api/v1/organizations/${t.org.id}/questions/${questionId}`, { key: t.keys.read })).body;
    const business = before.answers.find((a: any) => a.author === 'business');
    const edit = await api('POST', path, { key: t.keys.write, body: { content: 'For about an hour and a half.' } });
    expect(edit.status).toBe(200);
    expect(edit.body.answers).toEqual(
      before.answers.map((a: any) =>
        a.id === business.id ? { ...business, content: 'For about an hour and a half.' } : a
      ),
    );
    const pub = await api('GET', `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`);
    const shown = pub.body.data.find((q: any) => q.id === questionId).answers;
    expect(shown.filter((a: any) => a.author === 'business')).toEqual([
      expect.objectContaining({ id: business.id, content: 'For about an hour and a half.', helpful_count: 1 }),
    ]);
    // The same text again changes nothing: no trail entry, no event.
    const same = await api('POST', path, { key: t.keys.write, body: { content: ' For about an hour and a half. ' } });
    expect(same.status).toBe(200);
    expect(same.body.answers).toEqual(edit.body.answers);
    const trail = await db`
      select action, reason from plaudit.question_moderation_trail where answer_id = ${business.id} order by created_at`;
    expect(trail.map((e) => [e.action, e.reason])).toEqual([['answer', null], ['edit_answer', 'For about an hour.']]);
    const events = await db`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'question.answered'
         and data -> 'answer' ->> 'id' = ${business.id} order by created_at`;
    expect(events.map((e) => e.data.answer.content)).toEqual(['For about an hour.', 'For about an hour and a half.']);
  });

  it('hides and unhides questions and answers on the trail; hidden ones never show', async () => {
    const path = `/api/v1/public/products/${t.org.slug}/${mug.external_id}/questions`;
    const q =
      (await api('GET', `/api/v1/organizations/${t.org.id}/questions/${questionId}`, { key: t.keys.read })).body;
    const answerId = q.answers[0].id;
    const hideAnswer = await api('PATCH', `/api/v1/organizations/${t.org.id}/answers/${answerId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Wrong product' },
    });
    expect(hideAnswer.status).toBe(200);
    expect(hideAnswer.body.answers[0].is_hidden).toBe(true);
    const shown = (await api('GET', path)).body.data.find((x: any) => x.id === questionId);
    expect(shown.answers.map((a: any) => a.id)).not.toContain(answerId);

    const hide = await api('PATCH', `/api/v1/organizations/${t.org.id}/questions/${questionId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Duplicate' },
    });
    expect(hide.body.status).toBe('hidden');
    expect((await api('GET', path)).body.data.map((x: any) => x.id)).not.toContain(questionId);
    const twice = await api('PATCH', `/api/v1/organizations/${t.org.id}/questions/${questionId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Duplicate' },
    });
    expect(twice.body).toEqual(errorBody(409, 'Conflict', 'Question is already hidden'));
    const badAction = await api('PATCH', `/api/v1/organizations/${t.org.id}/questions/${questionId}/moderate`, {
      key: t.keys.write,
      body: { action: 'delete', reason: 'x' },
    });
    expect(badAction.status).toBe(422);
    await api('PATCH', `/api/v1/organizations/${t.org.id}/questions/${questionId}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'Not a duplicate' },
    });
    const trail = await db`
      select action, reason, actor from plaudit.question_moderation_trail where question_id = ${questionId}
       order by created_at`;
    expect(trail.map((e) => [e.action, e.reason])).toEqual([
      ['answer', null],
      ['edit_answer', 'For about an hour.'],
      ['hide', 'Wrong product'],
      ['hide', 'Duplicate'],
      ['unhide', 'Not a duplicate'],
    ]);
    expect(trail[2].actor).toBe(`api_key:${t.keyIds.write}`);
    // A hidden answer edited stays hidden until shown again.
    const edited = await api('POST', `/api/v1/organizations/${t.org.id}/questions/${questionId}/answers`, {
      key: t.keys.write,
      body: { content: 'About an hour, lid on.' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.answers.find((a: any) => a.id === answerId)).toMatchObject({
      content: 'About an hour, lid on.',
      is_hidden: true,
    });
    expect((await api('GET', path)).body.data.find((x: any) => x.id === questionId).answers.map((a: any) => a.id))
      .not.toContain(answerId);
  });

  it('lists with filters', async () => {
    const list = (query: string) =>
      api('GET', `/api/v1/organizations/${t.org.id}/questions?${query}`, { key: t.keys.read });
    const answered = await list(`answered=true&product_id=${mug.id}`);
    expect(answered.body.data.map((q: any) => q.id)).toEqual([questionId]);
    const open = await list('answered=false&status=published');
    expect(open.body.data.every((q: any) => !q.answered && q.status === 'published')).toBe(true);
    expect((await list('status=nope')).status).toBe(400);
  });

  it("refuses another tenant's key: read, answer, moderate", async () => {
    const read = await api('GET', `/api/v1/organizations/${other.org.id}/questions/${questionId}`, {
      key: other.keys.read,
    });
    expect(read.body).toEqual(errorBody(404, 'Not Found', 'Question not found'));
    const answer = await api('POST', `/api/v1/organizations/${other.org.id}/questions/${questionId}/answers`, {
      key: other.keys.write,
      body: { content: 'Mine now' },
    });
    expect(answer.body).toEqual(errorBody(404, 'Not Found', 'Question not found'));
    const moderate = await api('PATCH', `/api/v1/organizations/${other.org.id}/questions/${questionId}/moderate`, {
      key: other.keys.write,
      body: { action: 'hide', reason: 'x' },
    });
    expect(moderate.body).toEqual(errorBody(404, 'Not Found', 'Question not found'));
    const list = await api('GET', `/api/v1/organizations/${other.org.id}/questions`, { key: other.keys.read });
    expect(list.body.data).toEqual([]);
    const cross = await api('GET', `/api/v1/organizations/${t.org.id}/questions`, { key: other.keys.read });
    expect([403, 404]).toContain(cross.status);
    const readOnly = await api('POST', `/api/v1/organizations/${t.org.id}/questions/${questionId}/answers`, {
      key: t.keys.read,
      body: { content: 'read keys cannot' },
    });
    expect(readOnly.status).toBe(403);
  });

  it("lists the business's own questions apart from products'", async () => {
    const id = await askedAndConfirmed(t, `fay-${t.org.slug}@example.com`, 'Do you ship to Norway?');
    const pub = await api('GET', `/api/v1/public/questions/${t.org.slug}`);
    expect(pub.body.data.map((q: any) => q.id)).toEqual([id]);
    const [n] = await db<{ n: number }[]>`
      select count(*)::int as n from plaudit.email_outbox where template = 'question_for_buyer' and data ->> 'question_id' = ${id}`;
    expect(n.n).toBe(0);
  });
});

describe('the ask_buyers setting', () => {
  it('is on by default; off, a product question is e-mailed to no buyer', async () => {
    const path = `/api/v1/organizations/${t.org.id}/public-profile`;
    expect((await api('GET', path, { key: t.keys.read })).body.ask_buyers).toBe(true);
    const off = await api('PATCH', path, { key: t.keys.admin, body: { ask_buyers: false } });
    expect(off.body.ask_buyers).toBe(false);
    const id = await askedAndConfirmed(t, `gus-${t.org.slug}@example.com`, 'What is it made of?', mug.external_id);
    const [n] = await db<{ n: number }[]>`
      select count(*)::int as n from plaudit.email_outbox where template = 'question_for_buyer' and data ->> 'question_id' = ${id}`;
    expect(n.n).toBe(0);
    await api('PATCH', path, { key: t.keys.admin, body: { ask_buyers: true } });
  });
});
