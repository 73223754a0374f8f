// Shoppers' questions as they arrive: asked through the public API and confirmed through the link
// the confirmation mail carries (docs/questions.md).
import { expect } from 'vitest';
import { db, type Tenant } from './db.ts';
import { api } from './http.ts';

/** The token of the link a template mailed to an address about a question. */
export async function mailedToken(template: string, to: string, key: 'confirm_url' | 'answer_url') {
  const [row] = await db<{ url: string }[]>`
    select data ->> ${key} as url from plaudit.email_outbox
     where template = ${template} and to_address = ${to} order by created_at desc limit 1`;
  return row.url.split('/').pop()!;
}

/** Asks `t` as `email` (signed `name`) and confirms through the mailed link; answers the question's id. */
export async function askedAndConfirmed(
  t: Tenant,
  email: string,
  question: string,
  productExternalId?: string,
  name = 'Ann Asker',
) {
  const res = await api('POST', `/api/v1/public/questions/${t.org.slug}`, {
    body: { product_external_id: productExternalId, question, name, email },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const token = await mailedToken('question_confirmation', email, 'confirm_url');
  const confirmed = await api('POST', `/api/v1/public/question-confirmations/${token}`);
  expect(confirmed.status).toBe(200);
  const [q] = await db<{ id: string }[]>`
    select id from plaudit.questions where asker_email = ${email} order by created_at desc limit 1`;
  return q.id;
}
