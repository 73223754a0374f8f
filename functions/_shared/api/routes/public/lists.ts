// The business's public review lists (the widget's and the profile's), sorted and filtered: one
// statement as plaudit_public, with ETag revalidation, which the fast path takes too.
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import { readOnReplica } from '../../../core/db/routing.ts';
import type { Sql } from '../../../core/db/client.ts';
import type { AppEnv } from '../../http/env.ts';
import { answerJsonText, type JsonText } from '../../http/json-text.ts';
import type { Paginated } from '../../http/pagination.ts';
import { answerPublicRead, publicRead } from '../../middleware/public-access/index.ts';
import type { PublicReadDeclaration } from '../define.ts';
import {
  BUSINESS_NOT_FOUND,
  FIRST_REVIEW_PAGE,
  listVariant,
  notFound,
  notModifiedAnswer,
  type PublicReview,
  type PublicReviewListQuery,
  type PublicReviewQuery,
  publicVersion,
  withAttributeFilters,
} from './shared.ts';

export type PublicReviewPage = z.infer<ReturnType<typeof Paginated<typeof PublicReview>>>;

/**
 * A page of the business's public reviews with ETag revalidation (publicRead): the route's
 * decision, which the fast reads take too. 304 runs public_read_version alone; the page is one
 * statement, as plaudit_public, whose body is the database's JSON text, never parsed here; null
 * body: not found.
 */
export function publicReviewPage(
  sql: Sql,
  ifNoneMatch: string | undefined,
  slug: string,
  scope: 'embed' | 'profile',
  q: PublicReviewListQuery,
) {
  // Both statements on one server (a replica that serves, else the primary): the ETag and the page agree.
  return readOnReplica(sql, (db) =>
    publicRead<{ version: string; body: JsonText<PublicReviewPage> }>(
      ifNoneMatch,
      `${scope}-reviews:${slug}:${listVariant(q)}`,
      () => publicVersion(db, slug),
      async () => {
        const [row] = await db<{ version: string | null; body: JsonText<PublicReviewPage> | null }[]>`
          select version, body from plaudit.public_read_review_page(
            ${slug}, ${scope}, ${q.page}, ${q.limit}, ${q.sort}, ${q.rating ?? null}, ${q.has_media ?? false},
            ${q.language ?? null}, ${q.reader_language ?? null}, ${q.attributes ? db.json(q.attributes) : null})`;
        if (row.version === null) return null;
        return row.body === null
          ? { version: row.version, absent: true as const }
          : { version: row.version, body: row.body };
      },
    ));
}

export async function reviewPage(
  c: Context<AppEnv>,
  slug: string,
  scope: 'embed' | 'profile',
  query: z.infer<typeof PublicReviewQuery>,
) {
  const q = withAttributeFilters(query, c.req.query());
  const out = answerPublicRead(c, await publicReviewPage(c.var.sql, c.req.header('if-none-match'), slug, scope, q));
  if ('notModified' in out) return notModifiedAnswer(out.notModified);
  if (!out.data) throw notFound();
  return answerJsonText(c, out.data.body);
}

/** A feed's first page, which the fast path answers too (routes/define.ts, publicRoute). */
export const firstPageOf = (scope: 'embed' | 'profile'): PublicReadDeclaration => ({
  read: (sql, { slug }, ifNoneMatch) => publicReviewPage(sql, ifNoneMatch, slug, scope, FIRST_REVIEW_PAGE),
  notFound: BUSINESS_NOT_FOUND,
});
