// A day in words, in English and UTC ("November 29, 2026"), as the hosted pages and the mails
// name dates (a statement's, an appeal window's end, a review's).
export const DAY = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
