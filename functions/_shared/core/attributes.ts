// Attribute ratings as the public functions give them (plaudit.attribute_summary): the summary of
// one scale or rating field's public answers, for the API's summaries, the pages and the JSON-LD.

/** One scale or rating field's public answers: how many, the mean stars of a rating, per answer. */
export interface AttributeSummaryItem {
  key: string;
  label: string;
  type: 'scale' | 'rating';
  count: number;
  /** A rating field's mean stars, to 2 decimals. */
  average?: number;
  /** Public reviews per answer: a scale's labels in order, or stars 1 to 5, zeros included. */
  distribution: Record<string, number>;
}

/** The summaries as the database wrote them (bigints as text), with numbers. */
export function attributeSummaries(rows: readonly AttributeSummaryItem[] | null | undefined): AttributeSummaryItem[] {
  return (rows ?? []).map((a) => ({
    key: a.key,
    label: a.label,
    type: a.type,
    count: Number(a.count),
    ...(a.average === undefined || a.average === null ? {} : { average: Number(a.average) }),
    distribution: Object.fromEntries(Object.entries(a.distribution).map(([k, v]) => [k, Number(v)])),
  }));
}
