// How deep a client's JSON may nest. No body of the contract needs more than a handful of
// levels; anything walking a parsed value recursively (validation, canonical JSON, the database's
// own parser) would overflow its stack on a body nested thousands of levels deep, which fits in a
// few kilobytes. So the raw text is measured first, in one pass without recursion, and refused.

/** Arrays and objects inside each other in a request body, at most (docs/design.md, Limits). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }

/**
 * Whether JSON text nests arrays and objects more than `limit` levels deep (`[]` is one level).
 * Brackets inside strings, escaped quotes included, do not count. Text that is not JSON is only
 * measured, never judged: the parser that reads it afterwards refuses it.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++; // the escaped character, a quote or a backslash among them
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) {
      inString = true;
    } else if (ch === OPEN_BRACKET || ch === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (ch === CLOSE_BRACKET || ch === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
