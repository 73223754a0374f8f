// The widget's styles for a fragment in the shop's own page: no shadow root holds them there, so
// every selector is put under the fragment's root class, and none reaches the page around it. The
// shadow root's own selectors become the root's (`:host`) or are left out (`::slotted`).
import { STYLES } from './styles.ts';

/** The class of a fragment's root element: every one of its style rules starts with it. */
export const FRAGMENT_CLASS = 'plaudit-fragment';

function scopeSelector(selector: string, root: string): string | null {
  const s = selector.trim();
  if (s.includes('::slotted')) return null;
  return s.startsWith(':host') ? root + s.slice(':host'.length) : `${root} ${s}`;
}

/** Style rules (and @media blocks of rules) with every selector under `root`; comments dropped. */
export function scopeStyles(css: string, root: string): string {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let out = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open < 0) break;
    const prelude = text.slice(at, open).trim();
    if (prelude.startsWith('@')) {
      // A block of rules: up to its matching brace, scoped in turn.
      let depth = 1;
      let end = open + 1;
      for (; end < text.length && depth; end++) depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
      out += `${prelude}{${scopeStyles(text.slice(open + 1, end - 1), root)}}`;
      at = end;
      continue;
    }
    const close = text.indexOf('}', open);
    const selectors = prelude.split(',').map((s) => scopeSelector(s, root)).filter((s) => s !== null);
    if (selectors.length) out += `${selectors.join(',')}{${text.slice(open + 1, close).trim()}}`;
    at = close + 1;
  }
  return out;
}

/** The fragment's style sheet, scoped once. */
export const FRAGMENT_STYLES = scopeStyles(STYLES, `.${FRAGMENT_CLASS}`);
