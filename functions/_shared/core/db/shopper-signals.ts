// A visitor's helpful vote and report on a published review, for the API's public routes and the
// hosted pages' forms alike: one statement each, as plaudit_public, on the primary (they write).
// The visitor reaches the database only as a digest of its network (its address, or an IPv6
// address's /64), which the database hashes again with the review under a key of its own
// (docs/trust.md).
import { createHash } from 'node:crypto';
import type { Sql } from './client.ts';
import { runAsPublic } from './roles.ts';
import { parseIPv6 } from '../net/ssrf.ts';

/** The reasons a review may be reported for, as the database checks them. */
export const REPORT_REASONS = ['spam', 'offensive', 'personal_data', 'fake', 'conflict_of_interest', 'other'] as const;
export type ReportReason = typeof REPORT_REASONS[number];
/** The most a report's details may hold, as the database checks it. */
export const REPORT_DETAILS_MAX = 2000;
/** What a report says of the review: illegal (a notice under DSA Art. 16) or against the policy. */
export const REPORT_KINDS = ['illegal', 'policy'] as const;
export type ReportKind = typeof REPORT_KINDS[number];
/** The most the law an illegal review breaks may be named in, as the database checks it. */
export const LEGAL_GROUND_MAX = 500;
/** What a report's resolution did to the review. */
export const REPORT_DECISIONS = ['hidden', 'kept'] as const;

/**
 * What a notice of illegal content lacks (EU DSA Art. 16(2)): the law it names and the reporter's
 * statement of good faith; nothing for a report against the policy. The API and the hosted form
 * both refuse a report that lacks one.
 */
export function noticeGaps(
  r: { kind: ReportKind; legal_ground?: string | null; good_faith?: boolean | null },
): ('legal_ground' | 'good_faith')[] {
  if (r.kind !== 'illegal') return [];
  return [
    ...(r.legal_ground?.trim() ? [] : ['legal_ground' as const]),
    ...(r.good_faith === true ? [] : ['good_faith' as const]),
  ];
}

/** A visitor's report: the reason and details, and the notice's kind, ground, address and statement. */
export interface ReportSubmission {
  reason: ReportReason;
  details: string | null;
  kind: ReportKind;
  legal_ground: string | null;
  email: string | null;
  good_faith: boolean | null;
}

/** Who is asking: the rate limit's bucket and window, and the visitor's digest. */
export interface SignalCaller {
  /** The database rate-limit bucket of the client's network (a hash of it). */
  bucket: string;
  limit: number;
  /** SHA-256 of the client's network: visitorDigest. */
  visitor: Uint8Array;
}

/**
 * The network a visitor's address stands for: an IPv4 address as it is, an IPv6 address as its /64
 * (the prefix one home or one phone is given, whose addresses its owner can walk through at will).
 */
export function visitorNetwork(address: string): string {
  const v6 = parseIPv6(address);
  if (!v6) return address;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  if (mapped) return v6.slice(12).join('.');
  const hextets = [0, 2, 4, 6].map((i) => ((v6[i] << 8) | v6[i + 1]).toString(16));
  return `${hextets.join(':')}::/64`;
}

/**
 * The digest a visitor is told apart by: its network (visitorNetwork), never stored as it is. Not its
 * browser: a user agent is whatever the client says, and one address rotating it would vote once per
 * agent. So one vote, and one open report, per review and network (docs/trust.md).
 */
export function visitorDigest(address: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(visitorNetwork(address), 'utf8').digest());
}

/** The rate limit's answer, and whether the review named is a published one of the slug. */
export interface SignalOutcome {
  rate_allowed: boolean;
  rate_remaining: number;
  rate_reset: string;
  published: boolean;
}

/** Counts the visitor's helpful vote (once per network and review); answers the review's count. */
export async function voteHelpful(
  sql: Sql,
  caller: SignalCaller,
  slug: string,
  reviewId: string,
): Promise<SignalOutcome & { helpful_count: number | null }> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<(SignalOutcome & { helpful_count: number | null })[]>`
      select rate_allowed, rate_remaining, rate_reset, published, helpful_count
        from plaudit.vote_helpful(${caller.bucket}, ${caller.limit}, ${slug}, ${reviewId}, ${caller.visitor})`, {
    onPrimary: true,
  });
  return row;
}

/** Stores the visitor's report of the review (one open per network and review). */
export async function reportReview(
  sql: Sql,
  caller: SignalCaller,
  slug: string,
  reviewId: string,
  report: ReportSubmission,
): Promise<SignalOutcome> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<SignalOutcome[]>`
      select rate_allowed, rate_remaining, rate_reset, published
        from plaudit.report_review(${caller.bucket}, ${caller.limit}, ${slug}, ${reviewId}, ${caller.visitor},
                                   ${report.reason}, ${report.details}, ${report.kind}, ${report.legal_ground},
                                   ${report.email}, ${report.good_faith})`, { onPrimary: true });
  return row;
}

/** The published review a report form is about, as the public pages show it. */
export interface ReportedReview {
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  created_at: Date;
}

/** The slug's published review of that id, for the report form to show; null when there is none. */
export async function reportedReview(sql: Sql, slug: string, reviewId: string): Promise<ReportedReview | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<ReportedReview[]>`
      select rating, title, content, reviewer_name, created_at
        from plaudit.public_reported_review(${slug}, ${reviewId})`);
  return row ?? null;
}
