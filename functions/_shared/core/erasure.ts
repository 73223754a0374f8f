// An erased review (the reviewer asked for their data to go, with its text: docs/trust.md) keeps
// its stars, which the public figures count, but its title and text read plaudit.erasure_notice().
// Structured data leaves such a review out: a search engine's snippet would quote the notice as a
// review's words.

/** What plaudit.erasure_notice() answers: the title and text of a review erased with its text. */
export const ERASURE_NOTICE = "[removed at the reviewer's request]";

/** Whether a public review's text was removed at the reviewer's request. */
export const isErasedReview = (r: { content: string }) => r.content === ERASURE_NOTICE;
