// The public profile as the public functions give it, for the API's public routes and the
// profile page alike. Every read runs as plaudit_public.
import type { AttributeSummaryItem } from '../attributes.ts';
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';

export type PublicProfileRow = {
  version: string;
  enabled: boolean;
  slug: string;
  name: string;
  description: string | null;
  website: string | null;
  logo_url: string | null;
  average_rating: number | null;
  review_count: number;
  rating_distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
  embed: {
    layout: 'list' | 'grid' | 'carousel';
    theme: 'light' | 'dark' | 'auto';
    max_reviews: number;
    min_rating: number;
  };
  moderation_chain: { entries: number; head: string | null };
  /** The answers to scale and rating fields (plaudit.attribute_summary). */
  attributes: AttributeSummaryItem[];
  /** An open review bombing hold on the business's own reviews (review_holds.sql). */
  checking_recent_reviews: boolean;
};

/** The profile of `slug` (enabled or not), or null for an unknown slug. */
export async function loadPublicProfile(sql: Sql, slug: string): Promise<PublicProfileRow | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ p: PublicProfileRow | null }[]>`select plaudit.public_profile(${slug}) as p`,
  );
  return row.p;
}

/** The version of everything the profile shows (its reviews, settings, name, chain head): ETags come from it. */
export async function publicProfileVersion(sql: Sql, slug: string): Promise<string | null> {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ v: string | null }[]>`select plaudit.public_profile_version(${slug}) as v`,
  );
  return row.v;
}
