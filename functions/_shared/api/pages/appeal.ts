// The appeal form of a statement of reasons (EU DSA Art. 20), the link its mail carries (no API
// key; outside /api/v1; the token is single-purpose, stored as its hash):
//   GET/POST /appeals/:token   the decision appealed against, and the appeal in the reviewer's words
// One appeal per statement; a second visit says it was made. The text is bounded and taken as text.
// An appeal may be made for six months from the statement (plaudit.appeal_window, EU DSA Art.
// 20(1)): the form says until when, and past it the link answers 410 with the day it ended.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { APPEAL_TEXT_MAX, type AppealForm, appealForm, submitAppeal } from '../../core/db/appeals.ts';
import { markup } from './html.ts';
import { formValues, invalidLink, message, privatePage, TOKEN } from './shared.ts';
import { DAY } from '../../core/day.ts';

/** A NUL or a lone surrogate is not text the database can keep. */
const notText = (s: string) => s.includes('\0') || !s.isWellFormed();

function form(c: Context<AppEnv>, status: ContentfulStatusCode, token: string, f: AppealForm, text = '', error = '') {
  const ground = f.ground_type === 'law' ? markup`the law: ${f.ground}` : markup`${f.ground}`;
  return privatePage(
    c,
    status,
    'Appeal the decision',
    markup`<p class="org">${f.org_name}</p>
<h1>Appeal the decision to hide your review</h1>
<p>Your review was hidden on ${DAY.format(new Date(f.hidden_at))} on the ground of ${ground}.</p>
<p>The facts given: ${f.facts}</p>
<p>You may appeal until ${DAY.format(new Date(f.appeal_until))}.</p>
<form method="post" action="/appeals/${token}" novalidate>
<div class="field"><label for="f-text">Why should the decision be changed? <span class="hint">(up to ${APPEAL_TEXT_MAX} characters)</span></label>
<textarea id="f-text" name="text" rows="6" maxlength="${APPEAL_TEXT_MAX}" required aria-required="true"${
      error ? markup` aria-invalid="true" aria-describedby="f-text-error"` : ''
    }>${text}</textarea>
${error ? markup`<p class="error" id="f-text-error">${error}</p>` : ''}</div>
<p class="hint">A person at ${f.org_name} will decide, and you will get the decision by e-mail.</p>
<button type="submit">Send my appeal</button>
</form>`,
    { privateLink: true },
  );
}

const made = (c: Context<AppEnv>, f: AppealForm) =>
  message(
    c,
    409,
    'You appealed already',
    f.appeal_status === 'open'
      ? 'Your appeal is waiting for a decision; you will get it by e-mail.'
      : 'Your appeal was decided; the decision was sent to you by e-mail.',
    f.org_name,
  );

/**
 * The page of a link whose appeal window has ended: the database's words for it, and the ways that
 * stay open (an out-of-court dispute settlement body, DSA Art. 21, or a court), as the statement said.
 */
const closed = (c: Context<AppEnv>, f: Pick<AppealForm, 'org_name'>, refusal: string) =>
  message(
    c,
    410,
    'The time to appeal has ended',
    `${refusal} You may still turn to an out-of-court dispute settlement body or a court.`,
    f.org_name,
  );

export function appealPages() {
  const app = new Hono<AppEnv>();

  app.get('/appeals/:token', async (c) => {
    const token = c.req.param('token');
    const f = TOKEN.test(token) ? await appealForm(c.var.sql, token) : null;
    if (!f) return invalidLink(c);
    if (f.appeal_status) return made(c, f);
    if (f.appeal_closed) return closed(c, f, f.appeal_closed);
    return form(c, 200, token, f);
  });

  app.post('/appeals/:token', async (c) => {
    const token = c.req.param('token');
    const f = TOKEN.test(token) ? await appealForm(c.var.sql, token) : null;
    if (!f) return invalidLink(c);
    if (f.appeal_status) return made(c, f);
    if (f.appeal_closed) return closed(c, f, f.appeal_closed);
    const text = ((await formValues(c)).text ?? '').trim();
    const error = !text
      ? 'Write why the decision should be changed.'
      : [...text].length > APPEAL_TEXT_MAX
      ? `Keep your appeal to ${APPEAL_TEXT_MAX} characters.`
      : notText(text)
      ? 'Your appeal holds characters that are not text.'
      : '';
    if (error) return form(c, 422, token, f, notText(text) ? '' : text, error);
    const outcome = await submitAppeal(c.var.sql, token, text);
    if (typeof outcome === 'object') return closed(c, f, outcome.closed);
    if (outcome === 'invalid') return invalidLink(c);
    if (outcome === 'already_appealed') return made(c, { ...f, appeal_status: 'open' });
    return message(
      c,
      200,
      'Your appeal was sent',
      `A person at ${f.org_name} will look at it. You will get an e-mail now, and another with the decision.`,
      f.org_name,
    );
  });

  return app;
}
