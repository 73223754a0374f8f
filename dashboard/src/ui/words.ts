// The API's codes in the words a shop owner reads.
export const VERIFICATION_LABEL: Record<string, string> = {
  verified: 'Verified',
  pending: 'Awaiting verification',
  unverified: 'Not verified',
  rejected: 'Rejected',
};

/**
 * A review's verification status as its badge says it, in the tone the other badges give the same
 * state: verified is good, pending waits (warn), rejected is bad, unverified is plain.
 */
export function verificationBadge(status: string): { label: string; tone: 'good' | 'warn' | 'bad' | 'plain' } {
  const tone = ({ verified: 'good', pending: 'warn', rejected: 'bad' } as const)[status as 'verified'] ?? 'plain';
  return { label: VERIFICATION_LABEL[status] ?? status, tone };
}
import { type ImportFormat, PLATFORM_NAMES } from '../../../functions/_shared/core/imports/formats.ts';

/** Whether the public sees a review: shown, hidden, or not yet or never (pending, rejected). */
export type PublicState = 'published' | 'hidden' | 'pending' | 'rejected';

/**
 * Whether the public sees a review: only one neither hidden nor pending nor rejected is published
 * (the contract: public items are not hidden, and verified or unverified).
 */
export function publicState(r: { is_hidden: boolean; verification_status: string }): PublicState {
  if (r.is_hidden) return 'hidden';
  if (r.verification_status === 'pending' || r.verification_status === 'rejected') return r.verification_status;
  return 'published';
}

/** A review's public state as its badge says it; `held`: a pending review held at submission. */
export function publicStateBadge(
  state: PublicState,
  held = false,
): { label: string; tone: 'warn' | 'bad' | 'plain' } {
  return {
    published: { label: 'Published', tone: 'plain' as const },
    hidden: { label: 'Hidden', tone: 'bad' as const },
    pending: { label: held ? 'Held, not public' : 'Not public until verified', tone: 'warn' as const },
    rejected: { label: 'Not public', tone: 'bad' as const },
  }[state];
}

/** How a review was verified (the Review's verification_method), said to the shop. */
export const METHOD_LABEL: Record<string, string> = {
  email: 'The reviewer confirmed their e-mail address through the link we sent',
  purchase_proof: 'The order number matched an order you loaded',
  invitation: "Written from a review request's link, sent to this address",
  manual: 'Approved by your team',
};

/** Where a review came from (its `source`, and for an import its `source_platform`), in words. */
export function sourceWords(source: string, platform: string | null): string {
  if (source === 'import') {
    return `Imported from ${platform ? PLATFORM_NAMES[platform as ImportFormat] ?? platform : 'another platform'}`;
  }
  return source === 'invitation' ? "Written through a review request's page" : 'Sent through a form or the API';
}

/** A review's photos and videos counted, "2 photos, 1 video"; null without any. */
export function mediaWords(media: readonly { type: string }[]): string | null {
  const photos = media.filter((m) => m.type !== 'video').length;
  const videos = media.length - photos;
  const parts = [
    photos ? `${photos} photo${photos === 1 ? '' : 's'}` : '',
    videos ? `${videos} video${videos === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

export const ACTION_LABEL: Record<string, string> = {
  hide: 'Hidden',
  unhide: 'Shown again',
  verify: 'Verified',
  approve: 'Approved',
  reject: 'Rejected',
  reply: 'Replied',
  edit_reply: 'Reply edited',
  withdraw_reply: 'Reply withdrawn',
  hide_media: 'Photo or video hidden',
  unhide_media: 'Photo or video shown again',
  hold: 'Held for a check',
  burst_detected: 'Unusual number of low ratings',
  release_hold: 'Hold released',
};

/** Who made a change in the trail: a member, a key, the reviewer's link, or the database. */
export function actorLabel(actor: string, members: Map<string, string> = new Map()): string {
  const [kind, rest = ''] = actor.split(/:(.*)/s);
  if (kind === 'member') return members.get(rest) ?? 'A team member';
  if (kind === 'api_key') return `API key ${rest.slice(0, 8)}`;
  if (kind === 'reviewer') {
    return ({
      email_link: 'The reviewer, through the e-mail link',
      invitation: "The reviewer, writing from a review request's link",
      purchase_proof: 'The order number matched a loaded order',
    } as Record<string, string>)[rest] ?? `The reviewer (${rest})`;
  }
  if (kind === 'database') return `Directly in the database (${rest})`;
  if (kind === 'system') {
    return ({
      submission_checks: "Plaudit's checks at submission",
      burst_detection: "Plaudit's watch on low ratings",
    } as Record<string, string>)[rest] ?? `Plaudit (${rest})`;
  }
  return actor;
}
