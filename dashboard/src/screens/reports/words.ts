// The words of the reports' screen: each reason a visitor may give, as the business reads it.
export const REASON_LABEL: Record<string, string> = {
  spam: 'Spam or advertising',
  offensive: 'Offensive',
  personal_data: 'Personal data',
  fake: 'Fake review',
  conflict_of_interest: 'Conflict of interest',
  other: 'Something else',
};

/** A reason's words; an unknown one (a newer API) as it is. */
export function reasonLabel(reason: string): string {
  return REASON_LABEL[reason] ?? reason;
}

/** What a report says of the review: a notice of illegal content, or against the policy. */
export const KIND_LABEL: Record<string, string> = {
  illegal: 'Illegal content (DSA notice)',
  policy: 'Against your policy',
};

/** How long a report has waited, in the largest whole unit: "12 minutes", "3 hours", "2 days". */
export function ageLabel(createdAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 60_000));
  const [n, unit] = minutes < 60
    ? [minutes, 'minute']
    : minutes < 48 * 60
    ? [Math.floor(minutes / 60), 'hour']
    : [Math.floor(minutes / (24 * 60)), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
