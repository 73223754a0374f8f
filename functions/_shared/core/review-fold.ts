// Where a long review folds behind "Read more", the same in the widget and on the public pages:
// past this many characters, the first ones show, cut there and ended with an ellipsis.
export const FOLD_AFTER = 280;

/** The folded text of a review past FOLD_AFTER characters, or null for one short enough to show whole. */
export const foldedText = (text: string): string | null =>
  text.length > FOLD_AFTER ? `${text.slice(0, FOLD_AFTER).trimEnd()}…` : null;
