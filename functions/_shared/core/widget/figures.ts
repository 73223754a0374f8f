// How the widget writes a rating and a date, shared with the fragments the API draws of its first
// view (core/widget/fragment.ts), so that both write them alike.
import type { Strings } from './strings.ts';

/** The rounded rating as glyphs: the stars' text, for copying. */
export const starGlyphs = (rating: number) => '★'.repeat(Math.round(rating)) + '☆'.repeat(5 - Math.round(rating));
export const oneDecimal = (n: number) => n.toFixed(1);
// Formats are made once per locale: making one costs far more than using it (a server draws many).
const decimals: Record<string, Intl.NumberFormat> = {};
/** A rating as said aloud, to its second decimal (4.75), with at least `min` decimals. */
export const figure = (n: number, t: Strings, min = 0) =>
  (decimals[t.lang + min] ??= new Intl.NumberFormat(t.lang, { minimumFractionDigits: min, maximumFractionDigits: 2 }))
    .format(n);
/** The gold stars' width: the rating's fraction of five (styles.ts clips them to it). */
export const starFraction = (rating: number) => `${rating * 20}%`;

/** A review's date in the reader's locale (UTC, so that server and browser agree); an unknown locale keeps the ISO date. */
const dates = new Map<string, Intl.DateTimeFormat | null>();
export function reviewDate(iso: string, locale: string): string {
  if (!dates.has(locale)) {
    // Locales come from readers' requests: a bounded number kept.
    if (dates.size >= 64) dates.clear();
    try {
      dates.set(locale, new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }));
    } catch {
      dates.set(locale, null);
    }
  }
  return dates.get(locale)?.format(new Date(iso)) ?? iso.slice(0, 10);
}
