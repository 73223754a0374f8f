// The year's DSA transparency figures (supabase/schemas/dsa_transparency.sql) as the public reads
// them: the transparency page (/p/:slug/transparency?year=), its markdown twin and
// GET /api/v1/public/transparency/:slug show the figures the admin report answers, computed by the
// same SQL function, with the years that have data for the page's picker. Every read runs as
// plaudit_public.
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

/** The first year a report can be asked for; the last is the current one (UTC). */
export const DSA_FIRST_YEAR = 2020;

/** The figures of a year, as plaudit.dsa_transparency_of answers them (the admin JSON's shape). */
export interface DsaFigures {
  year: number;
  org_id: string;
  notices: {
    received: { illegal: number; policy: number; total: number };
    decided: { hidden: number; kept: number; total: number };
    median_seconds_to_decide: number | null;
  };
  own_initiative_restrictions: {
    total: number;
    automated: number;
    not_automated: number;
    by_ground: { ground_type: 'policy' | 'law'; ground: string; automated: boolean; count: number }[];
  };
  /** Bursts that opened a hold, and reviews held as pending at submission, by reason (review_holds.sql). */
  automated_holds: {
    bursts: number;
    held_reviews: { burst: number; duplicate_text: number; order_reused: number; total: number };
  };
  appeals: {
    received: number;
    decided: { upheld: number; reversed: number; total: number };
    median_seconds_to_decide: number | null;
  };
}

export interface PublicDsa {
  /** The years with a notice, statement or appeal, newest first. */
  years: number[];
  report: DsaFigures;
}

/** The year a `?year=` asks for (the current one when absent), or why it cannot be one. */
export function dsaYear(raw: string | undefined, now = new Date()): number | string {
  const current = now.getUTCFullYear();
  if (raw === undefined || raw === '') return current;
  if (!/^\d{4}$/.test(raw)) return 'The year must be written as four digits, such as 2025.';
  const year = Number(raw);
  if (year < DSA_FIRST_YEAR || year > current) {
    return `The year must be from ${DSA_FIRST_YEAR} to ${current}.`;
  }
  return year;
}

/** A slug's figures of `year` and its years with data; null for an unknown slug. */
export async function loadPublicDsa(sql: Sql, slug: string, year: number): Promise<PublicDsa | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ d: PublicDsa | null }[]>`select plaudit.public_dsa_transparency(${slug}, ${year}) as d`,
  );
  return row.d;
}

/**
 * The query that names `year` in a page's own address: none for the default (the current year), so
 * that the bare address stays the canonical one of the default, and `?year=YYYY` for any other.
 */
export function dsaYearQuery(year: number, now = new Date()): string {
  return year === now.getUTCFullYear() ? '' : `?year=${year}`;
}

/** The years a picker offers: those with data, the one shown and the current one (the default), newest first. */
export function pickerYears(d: PublicDsa, now = new Date()): number[] {
  return [...new Set([now.getUTCFullYear(), d.report.year, ...d.years])].sort((a, b) => b - a);
}

/** A median of seconds in words a reader takes in: minutes, hours or days. */
export function durationWords(seconds: number | null): string {
  if (seconds === null) return '–';
  const s = Number(seconds);
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min`;
  if (s < 86_400 * 2) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} days`;
}
