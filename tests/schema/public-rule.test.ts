// Which reviews are public has one definition, plaudit.review_is_public (inlined where it is
// called: supabase/tests/database/15-public-projection.test.sql checks that it can be): no other
// source of supabase/schemas/ writes the rule out, so that it cannot drift between the public
// reads, the counters and the CDN purges.
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/lib/sql-sources.mjs';

const RULE = 'plaudit.review_is_public';

/** The rule written out: the two public statuses listed, or the two others excluded, however spelled. */
const WRITTEN_OUT = [
  /\bin\s*\(\s*'(?:un)?verified'\s*,\s*'(?:un)?verified'\s*\)/i,
  /(?:=|is\s+not\s+distinct\s+from)\s*any\s*\(\s*(?:array\s*\[\s*)?'\{?\s*(?:un)?verified/i,
  /\bnot\s+in\s*\(\s*'(?:pending|rejected)'\s*,\s*'(?:pending|rejected)'\s*\)/i,
  /<>\s*all\s*\(\s*(?:array\s*\[\s*)?'\{?\s*(?:pending|rejected)/i,
];

const withoutComments = (sql: string) => sql.replace(/--[^\n]*/g, '');

describe('which reviews are public', () => {
  const sources = readSources();

  it('is written out in plaudit.review_is_public only', () => {
    const definition = sources.find((d) => d.kind === 'function' && d.name === RULE);
    expect(WRITTEN_OUT.some((re) => re.test(withoutComments(definition!.statement.text)))).toBe(true);
    const elsewhere = sources
      .filter((d) => d !== definition && WRITTEN_OUT.some((re) => re.test(withoutComments(d.statement.text))))
      .map((d) => `${d.file}: ${d.kind} ${d.name}`);
    expect(elsewhere).toEqual([]);
  });

  it('is what every place that decides publicity calls', () => {
    const callers = sources
      .filter((d) => d.name !== RULE && d.kind !== 'grant' && withoutComments(d.statement.text).includes(`${RULE}(`))
      .map((d) => `${d.kind} ${d.name}`)
      .sort();
    expect(callers).toEqual([
      'function plaudit.google_product_feed_page',
      'function plaudit.meta_review_feed_page',
      'function plaudit.public_feed_page_ids',
      'function plaudit.public_feed_total',
      'function plaudit.public_search_reviews',
      'function plaudit.public_transparency',
      'function plaudit.rebuild_attribute_statistics',
      'function plaudit.rebuild_product_review_statistics',
      'function plaudit.rebuild_review_statistics',
      'function plaudit.review_feeds_report',
      'function plaudit.review_leaves_summaries',
      'function plaudit.review_summary_inputs',
      'function plaudit.reviews_count_inserted',
      'function plaudit.reviews_count_updated',
      'function plaudit.save_review_summary',
      'function plaudit.signal_target',
      'trigger reviews_purge_cdn_on_insert on plaudit.reviews',
      'trigger reviews_purge_cdn_on_update on plaudit.reviews',
      'view plaudit.public_reviews',
    ]);
  });
});
