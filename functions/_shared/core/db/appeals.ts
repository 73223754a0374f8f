// The reviewer's side of an appeal (EU DSA Art. 20), through the single-purpose token of a
// statement of reasons: what the form shows, and the appeal itself. One statement each, as
// plaudit_public, on the primary.
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

/** The most an appeal may hold, as the database checks it. */
export const APPEAL_TEXT_MAX = 5000;

export interface AppealForm {
  org_name: string;
  ground_type: 'policy' | 'law';
  ground: string;
  facts: string;
  hidden_at: Date;
  appeal_status: 'open' | 'upheld' | 'reversed' | null;
  still_hidden: boolean;
}

/** What the appeal form of a token shows; null for an unknown token. */
export async function appealForm(sql: Sql, token: string): Promise<AppealForm | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<AppealForm[]>`
      select org_name, ground_type, ground, facts, hidden_at, appeal_status, still_hidden
        from plaudit.appeal_form(${token})`, { onPrimary: true });
  return row ?? null;
}

/** Stores the appeal once per statement: `appealed`, `already_appealed` or `invalid`. */
export async function submitAppeal(sql: Sql, token: string, text: string): Promise<string> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ outcome: string }[]>`select outcome from plaudit.submit_appeal(${token}, ${text})`,
    { onPrimary: true },
  );
  return row.outcome;
}
