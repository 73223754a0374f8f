// The widget's words, in English and German; other locales fall back to English. The widget and the
// fragments the API draws of its first view (core/widget/fragment.ts) share them.
export interface Strings {
  /** The language of these words, for numbers. */
  lang: string;
  rated: (n: string) => string;
  reviews: (n: number) => string;
  seeAll: (n: number) => string;
  verified: (method: string | null) => string;
  readMore: string;
  readLess: string;
  previous: string;
  next: string;
  region: (name: string) => string;
  replyFrom: (name: string) => string;
  noReviews: string;
  sortBy: string;
  /** newest, oldest, highest, lowest, helpful */
  sorts: [string, string, string, string, string];
  allRatings: string;
  more: string;
  sellerReply: string;
  incentivized: string;
  /** The link to the business's transparency page. */
  transparency: string;
  imported: (platform: string) => string;
  /** The vote button's words, with the count. */
  helpful: (n: number) => string;
  report: string;
  /** A review's photo n of k: a thumbnail's and the dialog's name. */
  photo: (n: number, k: number) => string;
  video: string;
  close: string;
  /** The filter of reviews with photos or videos. */
  withPhotos: string;
  /** On a product's widget, a review of another product of its group: the product it was written about. */
  variant: (name: string) => string;
  /** A review written in another language than the reader's, by its language's name. */
  writtenIn: (language: string) => string;
  /** While a review bombing hold is open on what the widget shows (docs/compliance.md). */
  checking: string;
  /** A product's tabs: its reviews, its questions (questions.tsx). */
  tabs: [string, string];
}

const counts: Record<string, Intl.NumberFormat> = {};
/** A count in the language's digits, its format made once (making one costs far more than using it). */
const count = (n: number, lang: string) => (counts[lang] ??= new Intl.NumberFormat(lang)).format(n);

/** The platforms reviews are imported from, by their import format. */
export const PLATFORMS: Record<string, string> = {
  judgeme: 'Judge.me',
  yotpo: 'Yotpo',
  okendo: 'Okendo',
  loox: 'Loox',
  shopify: 'Shopify Product Reviews',
  plaudit: 'Plaudit',
};

const en: Strings = {
  lang: 'en',
  rated: (n) => `Rated ${n} out of 5`,
  reviews: (n) => `${count(n, 'en')} review${n === 1 ? '' : 's'}`,
  seeAll: (n) => `See all ${count(n, 'en')} reviews`,
  verified: (m) =>
    m === 'email'
      ? 'Verified by e-mail'
      : m === 'purchase_proof'
      ? 'Verified purchase'
      : m === 'invitation'
      ? 'Verified by invitation'
      : 'Verified by the business',
  readMore: 'Read more',
  readLess: 'Show less',
  previous: 'Previous reviews',
  next: 'Next reviews',
  region: (name) => `Reviews of ${name}`,
  replyFrom: (name) => `Reply from ${name}`,
  noReviews: 'No reviews yet',
  sortBy: 'Sort by',
  sorts: ['Newest first', 'Oldest first', 'Highest rated', 'Lowest rated', 'Most helpful'],
  allRatings: 'All ratings',
  more: 'Show more reviews',
  sellerReply: 'Reply from the seller',
  incentivized: 'Received an incentive for this review',
  transparency: 'How reviews are collected',
  imported: (p) => `Imported from ${p}`,
  helpful: (n) => `Helpful (${count(n, 'en')})`,
  report: 'Report',
  photo: (n, k) => `Photo ${n} of ${k}`,
  video: 'Video',
  close: 'Close',
  withPhotos: 'With photos',
  variant: (name) => `Variant: ${name}`,
  writtenIn: (language) => `Written in ${language}`,
  checking: 'We are checking an unusual number of recent reviews',
  tabs: ['Reviews', 'Questions'],
};

const de: Strings = {
  lang: 'de',
  rated: (n) => `Bewertet mit ${n} von 5`,
  reviews: (n) => `${count(n, 'de')} Bewertung${n === 1 ? '' : 'en'}`,
  seeAll: (n) => `Alle ${count(n, 'de')} Bewertungen ansehen`,
  verified: (m) =>
    m === 'email'
      ? 'Per E-Mail bestätigt'
      : m === 'purchase_proof'
      ? 'Verifizierter Kauf'
      : m === 'invitation'
      ? 'Auf Einladung verifiziert'
      : 'Vom Unternehmen bestätigt',
  readMore: 'Weiterlesen',
  readLess: 'Weniger anzeigen',
  previous: 'Vorherige Bewertungen',
  next: 'Nächste Bewertungen',
  region: (name) => `Bewertungen von ${name}`,
  replyFrom: (name) => `Antwort von ${name}`,
  noReviews: 'Noch keine Bewertungen',
  sortBy: 'Sortieren nach',
  sorts: ['Neueste zuerst', 'Älteste zuerst', 'Beste zuerst', 'Schlechteste zuerst', 'Hilfreichste zuerst'],
  allRatings: 'Alle Bewertungen',
  more: 'Mehr Bewertungen anzeigen',
  sellerReply: 'Antwort des Händlers',
  incentivized: 'Für diese Bewertung gab es eine Gegenleistung',
  transparency: 'So werden Bewertungen gesammelt',
  imported: (p) => `Importiert von ${p}`,
  helpful: (n) => `Hilfreich (${count(n, 'de')})`,
  report: 'Melden',
  photo: (n, k) => `Foto ${n} von ${k}`,
  video: 'Video',
  close: 'Schließen',
  withPhotos: 'Mit Fotos',
  variant: (name) => `Variante: ${name}`,
  writtenIn: (language) => `Geschrieben auf ${language}`,
  checking: 'Wir prüfen gerade ungewöhnlich viele neue Bewertungen',
  tabs: ['Bewertungen', 'Fragen'],
};

export function stringsFor(locale: string): Strings {
  return locale.toLowerCase().startsWith('de') ? de : en;
}
