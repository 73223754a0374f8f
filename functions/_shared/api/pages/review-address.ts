// A review's own public address, /p/:slug/reviews/:reviewId, as shared links use it: a published
// review's is its place on the profile page (303); a hidden review's answers 410 Gone with the
// ground of its statement of reasons (EU DSA Art. 17), so that a link shared before the hide
// explains itself without showing anything of the review; anything else is 404.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { hiddenReviewGround } from '../../core/db/review-statements.ts';
import { reportedReview } from '../../core/db/shopper-signals.ts';
import { markup } from './html.ts';
import { privatePage } from './shared.ts';
import { DAY } from '../../core/day.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function reviewAddressPages() {
  const app = new Hono<AppEnv>();
  app.get('/p/:slug/reviews/:reviewId', async (c) => {
    const slug = c.req.param('slug');
    const reviewId = c.req.param('reviewId');
    const home = `/p/${encodeURIComponent(slug)}`;
    const missing = () =>
      privatePage(
        c,
        404,
        'Review not found',
        markup`<h1>Review not found</h1><p>There is no review at this address.</p><p><a href="${home}">See the reviews</a></p>`,
      );
    if (!UUID.test(reviewId)) return missing();
    const hidden = await hiddenReviewGround(c.var.sql, slug, reviewId);
    if (hidden) {
      const ground = hidden.ground_type === 'law'
        ? markup`under the law: ${hidden.ground}`
        : markup`under ${hidden.ground}`;
      return privatePage(
        c,
        410,
        'This review was removed',
        markup`<h1>This review was removed</h1>
<p role="status">It was hidden on ${DAY.format(new Date(hidden.hidden_at))} ${ground}.</p>
<p>Its author was told why, and ${new Date(hidden.appeal_until) > new Date() ? 'can' : 'could'} appeal until ${
          DAY.format(new Date(hidden.appeal_until))
        }.</p>
<p><a href="${home}">See the other reviews</a></p>`,
      );
    }
    if (await reportedReview(c.var.sql, slug, reviewId)) {
      c.header('Cache-Control', 'no-store');
      return c.redirect(`${home}#review-${reviewId.toLowerCase()}`, 303);
    }
    return missing();
  });
  return app;
}
