// Members sign in to the dashboard: passwordless, by e-mail (a one-time link and a 6-digit code in
// one mail), then a session in an HttpOnly cookie. The database keeps the challenges and
// sessions (only hashes) and decides every outcome; these routes carry its answers. The session
// then reaches the organization routes like an API key (middleware/credential).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { sha256 } from '../api-keys/format.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import type { AppEnv } from '../http/env.ts';
import { ApiError, errorResponse } from '../http/errors.ts';
import { errorResponseSpec, json, jsonBody, Timestamp } from '../http/schemas.ts';
import { clientIp } from '../middleware/rate-limit/index.ts';
import {
  clearSessionCookie,
  csrfTokenOf,
  hasCsrfToken,
  sessionTokenOf,
  setSessionCookie,
} from '../http/session-cookie.ts';
import { publicRoute, router } from './define.ts';

const Email = z.string().trim().max(320).email();

const SignInInput = z.object({ email: Email }).openapi('SignInInput', { example: { email: 'sam@acme.example' } });

const VerifyInput = z.object({
  token: z.string().max(100).optional().openapi({ description: "The token of the mail's link (after `#token=`)." }),
  email: Email.optional().openapi({ description: 'With `code`: the address the mail went to.' }),
  code: z.string().trim().regex(/^\d{6}$/, 'must be the 6 digits of the mail').optional(),
}).openapi('SignInVerification', { example: { email: 'sam@acme.example', code: '042917' } });

const SignUpInput = z.object({
  organization_name: z.string().trim().min(1).max(200),
  slug: z.string().trim().regex(
    /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    'must be 1–63 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
  ),
  email: Email,
  name: z.string().trim().max(200).optional(),
}).openapi('SignUpInput', {
  example: { organization_name: 'Acme Coffee', slug: 'acme-coffee', email: 'sam@acme.example', name: 'Sam' },
});

const Membership = z.object({
  id: z.string().uuid(),
  name: z.string(),
  slug: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
  scope: z.enum(['admin', 'write']).openapi({
    description: 'What the role may do: owner and admin act with `admin`, member with `write`.',
  }),
}).openapi('Membership');

const Session = z.object({
  email: z.string(),
  name: z.string().nullable(),
  csrf_token: z.string().openapi({
    description: 'Send it as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE made with this session.',
  }),
  expires_at: Timestamp.openapi({ description: 'When the session ends at the latest (30 days after sign-in).' }),
  idle_expires_at: Timestamp.openapi({ description: 'When it ends unless used before (7 days without use).' }),
  organizations: z.array(Membership),
}).openapi('Session');

const Accepted = z.object({ message: z.string() }).openapi('SignInAccepted');
const Options = z.object({
  sign_up: z.boolean().openapi({
    description: 'Whether anyone may create an organization here (`POST /auth/sign-up`).',
  }),
}).openapi('SignInOptions');

const SENT = 'If this address belongs to a team member, a sign-in link and code are on their way: check your inbox.';

const VERIFY_REFUSALS: Record<string, [401 | 429, string]> = {
  invalid: [401, 'This sign-in link or code is not valid: check it, or ask for a new mail'],
  used: [401, 'This sign-in link was used already: ask for a new mail'],
  expired: [401, 'This sign-in link has expired: ask for a new mail'],
  locked: [429, 'Too many wrong codes: ask for a new sign-in mail'],
};

const rateLimited = <E extends AppEnv>(c: Context<E>) => {
  c.header('Retry-After', '60');
  return errorResponse(c, 429, 'Too many sign-in requests: wait a minute and try again');
};

/** The session of a token as the dashboard sees it, or null when it is not live. */
async function sessionOf<E extends AppEnv>(c: Context<E>, token: string) {
  const [{ summary }] = await c.var.sql<{ summary: z.infer<typeof Session> | null }[]>`
    select plaudit.session_summary(${sha256(token)}) as summary`;
  if (!summary) return null;
  return {
    ...summary,
    csrf_token: csrfTokenOf(token),
    expires_at: new Date(summary.expires_at).toISOString(),
    idle_expires_at: new Date(summary.idle_expires_at).toISOString(),
  };
}

/** Sign-out's guard: a state change made with the session cookie needs its CSRF token. */
function csrfRefusal<E extends AppEnv>(c: Context<E>, token: string) {
  return hasCsrfToken(c, token) ? null : errorResponse(
    c,
    403,
    'Missing or wrong CSRF token: send X-CSRF-Token with the csrf_token of GET /api/v1/auth/session',
  );
}

const tags = ['Sign-in'];

export const auth = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/auth/options',
      operationId: 'auth.options',
      tags,
      summary: 'How people may sign in here',
      description: 'What the sign-in page offers on this service: whether it links to self-service sign-up.',
      responses: {
        200: json(Options, 'Whether self-service sign-up is open'),
        429: errorResponseSpec('Too many requests from this address'),
      },
    }),
    (c) => c.json({ sign_up: c.var.config.signUp }, 200),
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/auth/sign-in',
      operationId: 'auth.signIn',
      tags,
      summary: 'Ask for a sign-in mail',
      description:
        'Mails a one-time link and a 6-digit code (both valid 15 minutes, once) to a team member. The answer is the same whether or not the address belongs to anyone. Limited per address and per client address.',
      request: { body: jsonBody(SignInInput) },
      responses: {
        202: json(Accepted, 'Asked; a mail follows when the address belongs to a member'),
        422: errorResponseSpec('The address is not an e-mail address'),
        429: errorResponseSpec('Too many sign-in requests for this address or from this client'),
      },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const { sql, config } = c.var;
      const [{ outcome }] = await sql<{ outcome: string }[]>`
        select plaudit.request_sign_in(${email}, ${clientIp(c, config.trustProxy)}, ${config.publicUrl},
                                       ${config.signInRateLimitPerMinute}) as outcome`;
      if (outcome === 'rate_limited') return rateLimited(c);
      return c.json({ message: SENT }, 202);
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/auth/verify',
      operationId: 'auth.verify',
      tags,
      summary: 'Sign in with the link or the code',
      description:
        "Send the link's `token`, or `email` and `code`. Starts a session: its token is set as an HttpOnly cookie (never in the body), and the answer is the session with its CSRF token. Five wrong codes lock the mail.",
      request: { body: jsonBody(VerifyInput) },
      responses: {
        200: json(Session, 'Signed in'),
        401: errorResponseSpec('The link or code is not valid, used already, or expired'),
        422: errorResponseSpec('Neither a token nor an address and a code'),
        429: errorResponseSpec('Too many wrong codes'),
      },
    }),
    async (c) => {
      const { token, email, code } = c.req.valid('json');
      if (token === undefined && (email === undefined || code === undefined)) {
        throw new ApiError(422, 'code: send the token of the link, or the e-mail address and the code', [
          {
            field: 'code',
            code: 'required',
            message: 'send the token of the link, or the e-mail address and the code',
          },
        ]);
      }
      const [row] = await c.var.sql<{ outcome: string; session_token: string | null }[]>`
        select * from plaudit.verify_sign_in(${token ?? null}, ${email ?? null}, ${code ?? null},
                                             ${c.req.header('user-agent')?.slice(0, 200) ?? null})`;
      if (row.outcome !== 'signed_in' || !row.session_token) {
        const [status, message] = VERIFY_REFUSALS[row.outcome] ?? VERIFY_REFUSALS.invalid;
        return errorResponse(c, status, message);
      }
      const session = (await sessionOf(c, row.session_token))!;
      setSessionCookie(c, row.session_token, new Date(session.expires_at));
      return c.json(session, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/auth/session',
      operationId: 'auth.session',
      tags,
      summary: 'The signed-in session',
      description:
        'The person, their organizations with their role in each, and the CSRF token. Needs the session cookie.',
      responses: {
        200: json(Session, 'The session'),
        401: errorResponseSpec('Not signed in, or the session has ended'),
      },
    }),
    async (c) => {
      const token = sessionTokenOf(c);
      const session = token ? await sessionOf(c, token) : null;
      if (!session) return errorResponse(c, 401, 'Not signed in');
      c.header('Cache-Control', 'no-store');
      return c.json(session, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/auth/sign-out',
      operationId: 'auth.signOut',
      tags,
      summary: 'Sign out',
      description: 'Ends this session and clears its cookie. Needs `X-CSRF-Token`.',
      responses: {
        204: { description: 'Signed out' },
        403: errorResponseSpec('The CSRF token is missing or wrong'),
      },
    }),
    (c) => endSession(c, false),
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/auth/sign-out-everywhere',
      operationId: 'auth.signOutEverywhere',
      tags,
      summary: 'Sign out everywhere',
      description: "Ends every session of this session's person, on every browser. Needs `X-CSRF-Token`.",
      responses: {
        204: { description: 'Every session ended' },
        403: errorResponseSpec('The CSRF token is missing or wrong'),
      },
    }),
    (c) => endSession(c, true),
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/auth/sign-up',
      operationId: 'auth.signUp',
      tags,
      summary: 'Create an organization and become its owner',
      description:
        'Only where the operator opened sign-up (`PLAUDIT_SIGN_UP=open`; off by default): creates the organization with this address as its owner and mails a sign-in link.',
      request: { body: jsonBody(SignUpInput) },
      responses: {
        202: json(Accepted, 'Created; the sign-in mail follows'),
        404: errorResponseSpec('Sign-up is off on this service'),
        409: errorResponseSpec('The slug is taken'),
        422: errorResponseSpec('A field failed validation'),
        429: errorResponseSpec('Too many sign-ups from this client'),
      },
    }),
    async (c) => {
      const { sql, config } = c.var;
      if (!config.signUp) {
        return errorResponse(c, 404, 'Sign-up is off on this service: ask its operator for an organization');
      }
      const input = c.req.valid('json');
      const [{ outcome }] = await translateDbErrors(() =>
        sql<{ outcome: string }[]>`
          select plaudit.sign_up(${input.organization_name}, ${input.slug}, ${input.email}, ${input.name ?? null},
                                 ${
          clientIp(c, config.trustProxy)
        }, ${config.publicUrl}, ${config.signInRateLimitPerMinute}) as outcome`
      );
      if (outcome === 'rate_limited') return rateLimited(c);
      return c.json({ message: 'Your organization is ready: a sign-in link and code are on their way.' }, 202);
    },
  );

async function endSession<E extends AppEnv>(c: Context<E>, everywhere: boolean) {
  const token = sessionTokenOf(c);
  if (token) {
    const refused = csrfRefusal(c, token);
    if (refused) return refused as never;
    await c.var.sql`select plaudit.end_session(${sha256(token)}, ${everywhere})`;
  }
  clearSessionCookie(c);
  return c.body(null, 204);
}
