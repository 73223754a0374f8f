// Shoppers' questions and answers, for the API's public routes and the hosted pages alike: the
// public page of questions, asking, confirming, a buyer's answer and a helpful vote on an answer;
// one statement each as plaudit_public (the writes on the primary). docs/questions.md.
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

/** Who sends a public write: the rate-limit bucket of its address and its limit a minute. */
export interface QuestionCaller {
  bucket: string;
  limit: number;
}

/** What a limited public write answers besides its outcome. */
export interface RateAnswer {
  rate_allowed: boolean;
  rate_remaining: number;
  rate_reset: string;
}

/** A page of published questions of a product (or the business: null), with its version; null when unknown. */
export async function loadPublicQuestions(
  sql: Sql,
  slug: string,
  externalId: string | null,
  page: number,
  limit: number,
): Promise<{ version: string; body: string } | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<{ version: string | null; body: string | null }[]>`
      select version, body from plaudit.public_question_page(${slug}, ${externalId}, ${page}, ${limit})`);
  return row?.body && row.version ? { version: row.version, body: row.body } : null;
}

export interface AskedQuestion {
  slug: string;
  product_external_id: string | null;
  question: string;
  name: string;
  email: string;
}

/** Stores a question pending and mails its confirmation link (plaudit.ask_question). */
export async function askQuestion(sql: Sql, caller: QuestionCaller, q: AskedQuestion, linkBase: string) {
  const [row] = await runAsPublic(
    sql,
    (tx) =>
      tx<(RateAnswer & { error_code: string | null; error_message: string | null; id: string | null })[]>`
      select * from plaudit.ask_question(${caller.bucket}, ${caller.limit}, ${q.slug}, ${q.product_external_id},
                                          ${q.question}, ${q.name}, ${q.email}, ${linkBase})`,
    { onPrimary: true },
  );
  return row;
}

/** The outcomes of a confirmation link. */
export type ConfirmOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

/** Spends a question's confirmation link (plaudit.confirm_question): publishes it and asks its buyers. */
export async function confirmQuestion(sql: Sql, token: string, linkBase: string): Promise<ConfirmOutcome> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<{ outcome: ConfirmOutcome }[]>`
      select outcome from plaudit.confirm_question(${token}, ${linkBase})`, { onPrimary: true });
  return row.outcome;
}

/** The outcomes of a buyer's answer link. */
export type BuyerAnswerOutcome = 'answered' | 'already_used' | 'expired' | 'invalid' | 'not_published';

/** A verified buyer's answer through their link (plaudit.answer_question_by_token). */
export async function answerAsBuyer(sql: Sql, caller: QuestionCaller, token: string, content: string) {
  const [row] = await runAsPublic(
    sql,
    (tx) =>
      tx<(RateAnswer & { outcome: BuyerAnswerOutcome | null; answer_id: string | null })[]>`
      select * from plaudit.answer_question_by_token(${caller.bucket}, ${caller.limit}, ${token}, ${content})`,
    {
      onPrimary: true,
    },
  );
  return row;
}

/** A visitor's helpful vote on a visible answer (plaudit.vote_answer_helpful), once per visitor. */
export async function voteAnswerHelpful(
  sql: Sql,
  caller: QuestionCaller & { visitor: Uint8Array },
  slug: string,
  questionId: string,
  answerId: string,
) {
  const [row] = await runAsPublic(
    sql,
    (tx) =>
      tx<(RateAnswer & { published: boolean; helpful_count: number | null })[]>`
      select * from plaudit.vote_answer_helpful(${caller.bucket}, ${caller.limit}, ${slug}, ${questionId},
                                                ${answerId}, ${caller.visitor})`,
    { onPrimary: true },
  );
  return row;
}

/** What a buyer's answer page shows: the link's state and the question it answers. */
export async function answerLinkState(sql: Sql, token: string) {
  const [row] = await runAsPublic(
    sql,
    (tx) =>
      tx<{ state: string; question: string | null; product_name: string | null; org_name: string | null }[]>`
      select * from plaudit.question_answer_link(${token})`,
    { onPrimary: true },
  );
  return row;
}
