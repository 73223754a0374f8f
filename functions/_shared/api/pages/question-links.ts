// The questions' e-mailed links (no API key; outside /api/v1), docs/questions.md:
//   GET/POST /questions/confirm/:token   the asker confirms: GET asks, the button's POST confirms
//   GET/POST /answers/:token             a verified buyer answers one question, once
//   POST /p/:slug/products/:externalId/questions   a product page's Ask form (question-section.ts)
// Opening a link changes nothing (mail providers' link scanners fetch every link): the forms post.
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env.ts';
import { answerAsBuyer, answerLinkState, askQuestion, confirmQuestion } from '../../core/db/public-questions.ts';
import { questionCaller, tooManyRequests } from '../middleware/rate-limit/index.ts';
import { markup } from './html.ts';
import { invalidLink, message, privatePage, TOKEN } from './shared.ts';

const CONFIRM: Record<string, [ContentfulStatusCode, string, string]> = {
  confirmed: [200, 'Your question is confirmed', 'Thank you: your question is shown and will be answered there.'],
  already_confirmed: [409, 'This link was already used', 'Your question was confirmed before: nothing more to do.'],
  expired: [410, 'This link has expired', 'Confirmation links are valid for 7 days. Ask your question again.'],
};

const ANSWER: Record<string, [ContentfulStatusCode, string, string]> = {
  answered: [201, 'Thank you for your answer', 'Your answer is published, marked as from a verified buyer.'],
  already_used: [409, 'This link was already used', 'An answer was sent with this link before.'],
  expired: [410, 'This link has expired', 'Answer links are valid for 30 days.'],
  not_published: [409, 'This question is not shown any more', 'There is nothing to answer here now.'],
};

export function questionLinkPages() {
  const app = new Hono<AppEnv>();

  app.get('/questions/confirm/:token', (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    return privatePage(
      c,
      200,
      'Confirm your question',
      markup`<h1>Confirm your question</h1>
<p>Confirm that this e-mail address is yours: your question is then shown and can be answered.</p>
<form method="post" action="/questions/confirm/${token}"><button type="submit">Confirm my question</button></form>`,
      { privateLink: true },
    );
  });

  app.post('/questions/confirm/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    const outcome = await confirmQuestion(c.var.sql, token, c.var.config.publicUrl);
    const found = CONFIRM[outcome];
    return found ? message(c, ...found) : invalidLink(c);
  });

  app.get('/answers/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    const link = await answerLinkState(c.var.sql, token);
    if (link.state !== 'open') {
      return ANSWER[link.state] ? message(c, ...ANSWER[link.state], link.org_name) : invalidLink(c);
    }
    return privatePage(
      c,
      200,
      'Answer a question',
      markup`<p class="org">${link.org_name}</p>
<h1>A question about ${link.product_name ?? 'a product you bought'}</h1>
<blockquote>${link.question}</blockquote>
<form method="post" action="/answers/${token}">
<label for="content">Your answer</label>
<textarea id="content" name="content" required maxlength="5000" rows="6"></textarea>
<button type="submit">Publish my answer</button>
</form>`,
      { privateLink: true },
    );
  });

  app.post('/answers/:token', async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return invalidLink(c);
    const form = await c.req.parseBody();
    const content = typeof form.content === 'string' ? form.content.trim() : '';
    if (content.length < 1 || content.length > 5000) {
      return message(c, 422, 'Your answer is empty or too long', 'Write 1 to 5,000 characters, then send it again.');
    }
    const caller = questionCaller(c);
    const row = await answerAsBuyer(c.var.sql, caller, token, content);
    if (!row.rate_allowed) {
      return tooManyRequests(c, {
        limit: caller.limit,
        remaining: row.rate_remaining,
        reset: Number(row.rate_reset),
        allowed: false,
      });
    }
    const found = ANSWER[row.outcome ?? 'invalid'];
    return found ? message(c, ...found) : invalidLink(c);
  });

  // The Ask form of a product's page: the API's checks, in words for a person; the question is
  // stored pending and the confirmation link mailed, as POST /public/questions/:slug does.
  app.post('/p/:slug/products/:externalId/questions', async (c) => {
    const { slug, externalId } = c.req.param();
    const form = await c.req.parseBody();
    const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).trim() : '');
    const [question, name, email] = [field('question'), field('name'), field('email')];
    const wrong = question.length < 10 || question.length > 1000
      ? 'Your question needs 10 to 1,000 characters.'
      : name.length < 1 || name.length > 200
      ? 'Please give your name (up to 200 characters).'
      : !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 320
      ? 'Please give an e-mail address we can send the confirmation link to.'
      : null;
    if (wrong) return message(c, 422, 'Your question was not sent', wrong, null, false);
    const caller = questionCaller(c);
    const row = await askQuestion(c.var.sql, caller, {
      slug,
      product_external_id: externalId,
      question,
      name,
      email,
    }, c.var.config.publicUrl);
    if (!row.rate_allowed) {
      return tooManyRequests(c, { limit: caller.limit, remaining: 0, reset: Number(row.rate_reset), allowed: false });
    }
    if (row.error_message) return message(c, 404, 'Your question was not sent', `${row.error_message}.`, null, false);
    return message(
      c,
      202,
      'Check your e-mail',
      'We sent you a link: open it to confirm your question, and it shows on the product page.',
      null,
      false,
    );
  });

  return app;
}
