// E-mail verification of a review (no API key; outside /api/v1):
//   GET/POST /verify/:token   GET asks, the button's POST confirms
// Each runs one SQL function as plaudit_public.
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { markup } from './html.ts';
import { message, privatePage, TOKEN } from './shared.ts';

const VERIFY: Record<string, [ContentfulStatusCode, string, string]> = {
  verified: [
    200,
    'Your review is confirmed',
    'Thank you: your e-mail address is confirmed and your review will be published.',
  ],
  already_used: [
    409,
    'This link was already used',
    'Your review was confirmed with this link before: there is nothing more to do.',
  ],
  not_pending: [409, 'Nothing to confirm', 'This review does not need confirming any more.'],
  held: [
    409,
    'Your review is being checked',
    'The business is checking your review before it is published: there is nothing more to do.',
  ],
  expired: [
    410,
    'This link has expired',
    'Confirmation links are valid for 7 days. Submit your review again to get a new link.',
  ],
  invalid: [404, 'This link is not valid', 'Check that you opened the whole link from the e-mail.'],
};

export function verificationPages() {
  const app = new Hono<AppEnv>();

  // Opening the link changes nothing: mail providers' link scanners fetch every link of a message,
  // and must not confirm a review nobody confirmed. The button posts.
  app.get('/verify/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return message(c, ...VERIFY.invalid);
    const [link] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ state: string; org_name: string | null }[]>`
      select * from plaudit.verification_link_state(${token})`, { onPrimary: true });
    if (link.state !== 'pending') return message(c, ...(VERIFY[link.state] ?? VERIFY.invalid), link.org_name);
    return privatePage(
      c,
      200,
      'Confirm your review',
      markup`<p class="org">${link.org_name}</p>
<h1>Confirm your review</h1>
<p>Confirm that this e-mail address is yours: your review of ${link.org_name} is then published.</p>
<form method="post" action="/verify/${token}"><button type="submit">Confirm my review</button></form>`,
      { privateLink: true },
    );
  });

  app.post('/verify/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return message(c, ...VERIFY.invalid);
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string; org_name: string | null }[]>`
      select * from plaudit.verify_review_link(${token})`, { onPrimary: true });
    const [status, title, text] = VERIFY[row.outcome] ?? VERIFY.invalid;
    return message(c, status, title, text, row.org_name);
  });

  return app;
}
