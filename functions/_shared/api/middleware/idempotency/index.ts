import type { Context, MiddlewareHandler } from 'hono';
import { sha256 } from '../../api-keys/format.ts';
import { errorResponse } from '../../http/errors.ts';
import type { TenantEnv } from '../../http/env.ts';
import { toHex } from '../../../core/bytes.ts';

// Idempotency-Key on every POST that takes an API key, with Stripe's semantics: the first call
// with a key runs and its answer is kept with the key, in the same tenant transaction as what the
// call changed (plaudit.idempotency_keys), so that both are stored or neither is; a retry with
// the same key and the same body gets that answer again, byte for byte, with
// `Idempotent-Replayed: true`, and changes nothing; the same key with another route, another path
// of the route (another resource) or another body is refused (422). A call that failed keeps
// nothing (its transaction rolled back) and may be retried with the same key. A concurrent retry
// waits on the key's row until the first call ends. Keys are kept 24 hours per organization
// (plaudit.run_review_request_maintenance).

const WELL_FORMED = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /**
   * The answer shows a secret once (a new API key, a webhook secret): it is not kept, and a
   * retry is told that the call was carried out instead of being shown the secret again.
   */
  answerShowsSecret?: boolean;
  /**
   * What of the request is compared between calls, for a body that is not text (a file upload,
   * whose multipart boundary differs on every send): by default the body's text.
   */
  comparableBody?: (c: Context<TenantEnv>) => Promise<string>;
}

/** The body as compared between calls: JSON as JSON (spacing and key order aside), else its text. */
function comparable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Runs after the credential middleware, inside the request's tenant transaction. */
export function idempotency(
  { answerShowsSecret = false, comparableBody }: IdempotencyOptions = {},
): MiddlewareHandler<TenantEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!WELL_FORMED.test(key)) {
      return errorResponse(c, 400, 'Idempotency-Key: must be 1 to 255 visible ASCII characters');
    }
    const db = c.var.db;
    const orgId = c.var.caller!.orgId;
    const route = `${c.req.method} ${c.req.routePath}`;
    const body = comparableBody ? await comparableBody(c) : comparable(await c.req.text());
    // The path itself, not only its route: a key used for one review's reply is not replayed for another's.
    const hash = sha256(`${route}\n${c.req.path}\n${body}`);

    const [claimed] = await db<{ key: string }[]>`
      insert into plaudit.idempotency_keys (org_id, key, route, request_hash)
      values (${orgId}, ${key}, ${route}, ${hash})
      on conflict (org_id, key) do nothing returning key`;
    if (!claimed) {
      const [first] = await db<
        { route: string; request_hash: Uint8Array; status_code: number | null; response: string | null }[]
      >`
        select route, request_hash, status_code, response from plaudit.idempotency_keys
        where org_id = ${orgId} and key = ${key}`;
      if (!first || first.route !== route || toHex(new Uint8Array(first.request_hash)) !== toHex(hash)) {
        return errorResponse(
          c,
          422,
          'Idempotency-Key: this key was already used for another request; use a new key for each request',
        );
      }
      c.header('Idempotent-Replayed', 'true');
      if (first.response === null) {
        return errorResponse(
          c,
          409,
          'Idempotency-Key: this request was carried out already; its answer showed a secret once and is not kept',
        );
      }
      return c.body(first.response, first.status_code as 200, { 'Content-Type': 'application/json' });
    }

    await next();
    if (c.error || c.res.status >= 400) return;
    const answer = answerShowsSecret ? null : await c.res.clone().text();
    await db`
      update plaudit.idempotency_keys set status_code = ${c.res.status}, response = ${answer}
      where org_id = ${orgId} and key = ${key}`;
  };
}
