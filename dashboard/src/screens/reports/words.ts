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
