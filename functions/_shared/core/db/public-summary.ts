// A business's or a product's review summary as the public functions give it, for the public
// routes, the pages and the MCP tool alike (plaudit.public_read_review_summary, as plaudit_public).
import type { Sql } from './client.ts';

/** A summary as answered: the contract's shape (docs/summaries.md). */
export interface PublicSummary {
  review_count: number;
  generated_at: string;
  language: string | null;
  sentences: { text: string; sentiment: 'positive' | 'negative' | 'mixed'; review_ids: string[]; count: number }[];
  topics: { name: string; mentions: number; positive: number; negative: number; review_ids: string[] }[];
}

/** The version of the answers that show the summary, and its body as JSON text (null: none to show). */
export interface PublicSummaryRow {
  version: string | null;
  body: string | null;
}

/**
 * The summary of the business of `slug` (externalId null) or of one of its products, with the
 * version its ETag is made from; no row for an unknown slug or product, no body below 5 published
 * reviews or before the worker made one.
 */
export async function readPublicSummary(sql: Sql, slug: string, externalId: string | null): Promise<PublicSummaryRow> {
  const [row] = await sql<PublicSummaryRow[]>`
    select version, body from plaudit.public_read_review_summary(${slug}, ${externalId})`;
  return row ?? { version: null, body: null };
}
