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
  /** The last moment an appeal may be made (six months from the statement: plaudit.appeal_until). */
  appeal_until: Date;
  /** Once that has passed, the refusal to show ("The time to appeal this decision ended on …."); else null. */
  appeal_closed: string | null;
}

/** What the appeal form of a token shows; null for an unknown token. */
export async function appealForm(sql: Sql, token: string): Promise<AppealForm | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<AppealForm[]>`
      select org_name, ground_type, ground, facts, hidden_at, appeal_status, still_hidden, appeal_until, appeal_closed
        from plaudit.appeal_form(${token})`, { onPrimary: true });
  return row ?? null;
}

/**
 * Stores the appeal once per statement: `appealed`, `already_appealed` or `invalid`; or, past the
 * statement's appeal window, `{ closed }` with the database's refusal.
 */
export async function submitAppeal(sql: Sql, token: string, text: string): Promise<string | { closed: string }> {
  try {
    const [row] = await runAsPublic(
      sql,
      (tx) => tx<{ outcome: string }[]>`select outcome from plaudit.submit_appeal(${token}, ${text})`,
      { onPrimary: true },
    );
    return row.outcome;
  } catch (err) {
    // object_not_in_prerequisite_state: the appeal window has ended (the window's end was crossed
    // between the form's read and this call).
    if ((err as { code?: string }).code === '55000') return { closed: (err as Error).message };
    throw err;
  }
}
