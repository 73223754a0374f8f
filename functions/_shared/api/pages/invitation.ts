// A team invitation's link (no API key; outside /api/v1):
//   GET/POST /invitations/:token   the invitation, and accepting it with one's name
// Each runs one SQL function as plaudit_public.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { markup } from './html.ts';
import type { Errors } from './review-form.ts';
import { formValues, message, privatePage, TOKEN } from './shared.ts';

type InvitationRow = {
  state: string;
  email: string | null;
  role: string | null;
  org_name: string | null;
  expires_at: Date | null;
};

const INVITATION: Record<string, [ContentfulStatusCode, string, string]> = {
  accepted: [409, 'This invitation was already accepted', 'You are a member already: nothing more to do.'],
  accepted_before: [409, 'This invitation was already accepted', 'You are a member already: nothing more to do.'],
  expired: [410, 'This invitation has expired', 'Invitations are valid for 7 days. Ask for a new one.'],
  revoked: [410, 'This invitation was withdrawn', 'Ask the person who invited you for a new invitation.'],
  invalid: [404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.'],
};

const invitationForm = (c: Context<AppEnv>, token: string, inv: InvitationRow, errors: Errors, name = '') =>
  privatePage(
    c,
    Object.keys(errors).length ? 422 : 200,
    `Join ${inv.org_name}`,
    markup`<p class="org">${inv.org_name}</p>
<h1>Join ${inv.org_name} on Plaudit</h1>
<p>You are invited as ${inv.role === 'admin' ? 'an administrator' : 'a member'}, with the address ${inv.email}.</p>
<form method="post" action="/invitations/${token}" novalidate>
<div class="field"><label for="f-name">Your name</label>
<input type="text" id="f-name" name="name" autocomplete="name" maxlength="200" required aria-required="true" value="${name}"${
      errors.name ? markup` aria-invalid="true" aria-describedby="f-name-error" autofocus` : ''
    }>
${errors.name ? markup`<p class="error" id="f-name-error">${errors.name}</p>` : ''}</div>
<button type="submit">Accept the invitation</button>
</form>`,
    { privateLink: true },
  );

async function loadInvitation(c: Context<AppEnv>, token: string) {
  if (!TOKEN.test(token)) return { state: 'invalid' } as InvitationRow;
  const [row] = await runAsPublic(
    c.var.sql,
    (tx) => tx<InvitationRow[]>`select * from plaudit.invitation_for_token(${token})`,
    { onPrimary: true },
  );
  return row;
}

export function invitationPages() {
  const app = new Hono<AppEnv>();

  app.get('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const inv = await loadInvitation(c, token);
    if (inv.state !== 'pending') return message(c, ...(INVITATION[inv.state] ?? INVITATION.invalid), inv.org_name);
    return invitationForm(c, token, inv, {});
  });

  app.post('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const inv = await loadInvitation(c, token);
    if (inv.state !== 'pending') return message(c, ...(INVITATION[inv.state] ?? INVITATION.invalid), inv.org_name);
    const name = (await formValues(c)).name?.trim() ?? '';
    if (!name || name.length > 200) {
      return invitationForm(c, token, inv, {
        name: name ? 'Your name can be at most 200 characters long.' : 'Enter your name.',
      }, name);
    }
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string }[]>`
      select plaudit.accept_invitation(${token}, ${name}) as outcome`, { onPrimary: true });
    if (row.outcome === 'accepted' || row.outcome === 'already_member') {
      // The next step is the dashboard: signing in there with this address sends its mail.
      return privatePage(
        c,
        200,
        `Welcome to ${inv.org_name}`,
        markup`<p class="org">${inv.org_name}</p><h1>Welcome to ${inv.org_name}</h1>
<p>You are now a member of ${inv.org_name} on Plaudit. Sign in to the dashboard with ${inv.email}: we e-mail you a link and a code, no password needed.</p>
<p><a class="button" href="/app">Sign in to the dashboard</a></p>`,
        { privateLink: true },
      );
    }
    return message(c, ...(INVITATION[row.outcome] ?? INVITATION.invalid), inv.org_name);
  });

  return app;
}
