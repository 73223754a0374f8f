// Dashboard sessions in tests: members made as the admin command line makes them, sign-in through
// the real mail (the worker sends over SMTP into the capture behind /_dev/mail), and requests
// made with the session cookie and its CSRF token, as the dashboard makes them.
import { db, type Tenant } from './db.ts';
import { api, type ApiResponse, type RequestOptions } from './http.ts';
import { type CapturedMail, waitForMail } from './review-requests.ts';

let counter = 0;
/** A fresh address for a person. */
export function personEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 6)}@staff.example`;
}

export async function addMember(t: Tenant, email: string, role: 'owner' | 'admin' | 'member', name?: string) {
  const [m] = await db<{ id: string }[]>`
    insert into plaudit.members (org_id, email, name, role) values (${t.org.id}, ${email}, ${name ?? null}, ${role})
    returning id`;
  return m.id;
}

export interface SignInMail {
  mail: CapturedMail;
  /** The link's token (after `#token=`). */
  token: string;
  code: string;
}

/** The newest sign-in mail to `email`, once `count` have arrived. */
export async function signInMail(email: string, count = 1): Promise<SignInMail> {
  const mails = await waitForMail((to) => to === email, count);
  const mail = mails.sort((a, b) => a.received_at.localeCompare(b.received_at)).at(-1)!;
  const token = /\/app\/sign-in#token=([0-9A-Za-z]{43})/.exec(mail.text)?.[1];
  const code = /: (\d{6})\n/.exec(mail.text)?.[1];
  if (!token || !code) throw new Error(`no sign-in link or code in:\n${mail.text}`);
  return { mail, token, code };
}

export interface Session {
  cookie: string;
  csrf: string;
  body: {
    email: string;
    csrf_token: string;
    organizations: { id: string; name: string; slug: string; role: string; scope: string }[];
  };
}

/** The session cookie (`name=value`) an answer sets. */
export function sessionCookie(res: ApiResponse): string {
  const set = res.headers.get('set-cookie') ?? '';
  const m = /((?:__Host-)?plaudit_session=[0-9A-Za-z]{43})/.exec(set);
  if (!m) throw new Error(`no session cookie in ${set}`);
  return m[1];
}

/** Asks for a mail, waits for it, signs in with its link. A mail worker must run for the member's first organization. */
export async function signIn(email: string, nthMail = 1): Promise<Session> {
  const asked = await api('POST', '/api/v1/auth/sign-in', { body: { email } });
  if (asked.status !== 202) throw new Error(`sign-in: ${asked.status} ${JSON.stringify(asked.body)}`);
  const { token } = await signInMail(email, nthMail);
  const res = await api('POST', '/api/v1/auth/verify', { body: { token } });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${JSON.stringify(res.body)}`);
  return { cookie: sessionCookie(res), csrf: res.body.csrf_token, body: res.body };
}

/** A request as the dashboard makes it: the cookie, and the CSRF token unless `csrf: false`. */
export function asSession<T = any>(
  session: Pick<Session, 'cookie' | 'csrf'>,
  method: string,
  path: string,
  opts: RequestOptions & { csrf?: boolean | string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { cookie: session.cookie, ...opts.headers };
  if (opts.csrf !== false) headers['x-csrf-token'] = typeof opts.csrf === 'string' ? opts.csrf : session.csrf;
  return api<T>(method, path, { ...opts, headers });
}
