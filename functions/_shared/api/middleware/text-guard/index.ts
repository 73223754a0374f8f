import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../../http/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

// PostgreSQL's text cannot hold a NUL character, and UTF-8 cannot encode half of a UTF-16
// surrogate pair: such a string would fail deep in a query. They are refused at the edge instead,
// naming the field, for every route: path, query and JSON body alike.
// deno-lint-ignore no-control-regex -- finding the control character is the point
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string that PostgreSQL cannot store, or undefined. */
export function unstorable(text: string): string | undefined {
  if (NUL.test(text)) return 'must not contain NUL characters (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds an unpaired UTF-16 surrogate)';
  return undefined;
}

/** Where a value sits in a JSON body: its key or index, under its parent (null at the top). */
type Place = { name: string; parent: Place } | null;

const fieldOf = (place: Place): string => {
  const names: string[] = [];
  for (let p = place; p; p = p.parent) names.push(p.name);
  return names.length ? names.reverse().join('.') : 'body';
};

/**
 * The first field of a parsed JSON value (keys included) holding unstorable text, in document
 * order. Walks with a stack of its own rather than recursion: no nesting can overflow it.
 */
export function findUnstorable(value: unknown): { field: string; problem: string } | undefined {
  // A key is checked when its entry comes up, after everything before it and before its value.
  const stack: { value: unknown; place: Place; key?: string }[] = [{ value, place: null }];
  while (stack.length) {
    const { value, place, key } = stack.pop()!;
    if (key !== undefined) {
      const keyProblem = unstorable(key);
      if (keyProblem) return { field: fieldOf({ name: '(a key)', parent: place!.parent }), problem: keyProblem };
    }
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) return { field: fieldOf(place), problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], place: { name: String(i), parent: place } });
      }
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, item] = entries[i];
        stack.push({ value: item, place: { name, parent: place }, key: name });
      }
    }
  }
  return undefined;
}

/** A form's fields as findUnstorable walks them: text values only (a file's bytes are the route's to judge). */
function formFields(form: FormData): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of form) if (typeof value === 'string') (fields[name] ??= []).push(value);
  return fields;
}

/** The field a form's problem is in: its name (a repeated field's index is no help to the sender). */
const formField = (field: string) => field.replace(/\.\d+$/, '');

export interface TextGuardOptions {
  /**
   * Paths whose multipart body holds a file the route reads only after checks of its own (who may
   * send it, the limits): the guard does not read their bodies, and their text fields are enums
   * that the route's schema validates.
   */
  fileBodies?: RegExp[];
}

/**
 * Refuses a request whose path or query holds a NUL, or that is not valid UTF-8 (400), whose JSON
 * body nests deeper than MAX_JSON_DEPTH (400, measured on the text before anything parses it), or
 * whose JSON body or form body (urlencoded or multipart: the hosted pages' forms) holds a string
 * PostgreSQL cannot store (422, the status of a body that parses but does not validate). A body that
 * does not parse is left to the route, which answers it.
 */
export function textGuard({ fileBodies = [] }: TextGuardOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return errorResponse(c, 400, 'path: must be valid UTF-8 once percent-decoded');
    }
    const pathProblem = unstorable(path);
    if (pathProblem) return errorResponse(c, 400, `path: ${pathProblem}`);
    for (const [name, value] of url.searchParams) {
      const problem = unstorable(name) ?? unstorable(value);
      if (problem) return errorResponse(c, 400, `${unstorable(name) ? 'query parameter name' : name}: ${problem}`);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && /json/i.test(c.req.header('content-type') ?? '')) {
      // The text is kept by Hono: the route reads and parses the same bytes again.
      let text: string;
      try {
        text = await c.req.text();
      } catch {
        return next();
      }
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        return errorResponse(c, 400, `body: must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return next();
      }
      const found = findUnstorable(body);
      if (found) return errorResponse(c, 422, `${found.field}: ${found.problem}`);
    }
    const type = c.req.header('content-type') ?? '';
    const form = /^application\/x-www-form-urlencoded\b/i.test(type) ||
      (/^multipart\/form-data\b/i.test(type) && !fileBodies.some((p) => p.test(url.pathname)));
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && form) {
      // The bytes are what Hono keeps, so that a route reading the raw body (a signature over it)
      // gets them as sent; a kept FormData would come back re-encoded as multipart.
      let fields: Record<string, string[]>;
      try {
        const bytes = await c.req.arrayBuffer();
        fields = formFields(await new Response(bytes, { headers: { 'content-type': type } }).formData());
      } catch {
        return next();
      }
      const found = findUnstorable(fields);
      if (found) return errorResponse(c, 422, `${formField(found.field)}: ${found.problem}`);
    }
    return next();
  };
}
