// The bounds of an inbound event's JSON, whatever its platform: how deep, how long a list and a
// string may be. Platforms' real events fit well within them; what does not is refused (4xx),
// never stored.
export const MAX_DEPTH = 32;
export const MAX_ARRAY = 1000;
export const MAX_STRING = 20_000;

/** What is out of bounds in a parsed JSON value, or undefined. Walks with a stack: no recursion. */
export function payloadProblem(value: unknown): string | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: 'body' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > MAX_STRING) return `${path}: at most ${MAX_STRING} characters`;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return `${path}: nested deeper than ${MAX_DEPTH} levels`;
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY) return `${path}: at most ${MAX_ARRAY} entries`;
      v.forEach((x, i) => stack.push({ v: x, depth: depth + 1, path: `${path}[${i}]` }));
    } else {
      for (const [k, x] of Object.entries(v)) {
        if (k.length > 200) return `${path}: a key longer than 200 characters`;
        stack.push({ v: x, depth: depth + 1, path: `${path}.${k}` });
      }
    }
  }
  return undefined;
}
