// The dashboard's session: its token travels in an HttpOnly cookie, and every state-changing
// request must also carry the CSRF token bound to it (X-CSRF-Token). The CSRF token is derived
// from the session token, so nothing more is stored, and another site, which can make the browser
// send the cookie but never read it, cannot compute it.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createHash } from 'node:crypto';
import { timingSafeEqual } from '../../core/bytes.ts';
import type { AppEnv } from './env.ts';

/** Session tokens are 43 base62 characters (plaudit.random_base62(43): 256 bits). */
const TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;

export const CSRF_HEADER = 'x-csrf-token';

/** Over https the cookie is `__Host-` prefixed: Secure, host-only, path /, so no sibling site can set it. */
function cookieName<E extends AppEnv>(c: Context<E>): string {
  return secure(c) ? '__Host-plaudit_session' : 'plaudit_session';
}

function secure<E extends AppEnv>(c: Context<E>): boolean {
  return c.var.config.publicUrl?.startsWith('https:') === true;
}

/** The session token the request carries, when it is well formed. */
export function sessionTokenOf<E extends AppEnv>(c: Context<E>): string | undefined {
  const token = getCookie(c, cookieName(c));
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}

export function setSessionCookie<E extends AppEnv>(c: Context<E>, token: string, expiresAt: Date): void {
  setCookie(c, cookieName(c), token, {
    httpOnly: true,
    secure: secure(c),
    sameSite: 'Lax',
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie<E extends AppEnv>(c: Context<E>): void {
  deleteCookie(c, cookieName(c), { path: '/', secure: secure(c), httpOnly: true, sameSite: 'Lax' });
}

/** The CSRF token of a session: base64url(SHA-256("csrf:" + session token)). */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');
}

/** True when the request's X-CSRF-Token is its session's. */
export function hasCsrfToken<E extends AppEnv>(c: Context<E>, sessionToken: string): boolean {
  const sent = c.req.header(CSRF_HEADER);
  return sent !== undefined && timingSafeEqual(sent, csrfTokenOf(sessionToken));
}
