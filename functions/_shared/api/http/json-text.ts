import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

declare const jsonOf: unique symbol;

/**
 * JSON that PostgreSQL (or a splice of it) wrote as text, of the shape T: passed through to the
 * answer unparsed, so its bytes are the database's.
 */
export type JsonText<T> = string & { readonly [jsonOf]: T };

/** Text the caller vouches is JSON of the shape T (the statement that wrote it says so). */
export const jsonText = <T>(text: string) => text as JsonText<T>;

/** Answers JSON text as it is, with JSON's content type, typed as the route's JSON answer. */
export function answerJsonText<T, S extends ContentfulStatusCode = 200>(
  c: Context,
  text: JsonText<T>,
  status: S = 200 as S,
): TypedResponse<T, S, 'json'> {
  return c.body(text, status, { 'Content-Type': 'application/json' }) as unknown as TypedResponse<T, S, 'json'>;
}
