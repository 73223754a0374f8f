// The dashboard: a member's session must cost no more than an API key. The same read (the review
// list, page 1 of 100,000 reviews) with a key and with a session cookie, side by side.
//
//   BENCH_REVIEWS=100000   reviews of the organization read (shared with the review scenarios)
import { createHash, randomBytes } from 'node:crypto';
import { expectStatus, seedOrganization } from './reviews.mjs';
import { positive } from '../stats.mjs';

/** A session of a member of the organization, made as plaudit.verify_sign_in makes one. */
export async function memberSession(ctx, orgId) {
  const sql = ctx.stack.sql;
  const email = `bench-${Date.now()}@staff.example`;
  await sql`insert into plaudit.members (org_id, email, role) values (${orgId}, ${email}, 'owner')`;
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const token = [...randomBytes(43)].map((b) => alphabet[b % 62]).join('');
  const hash = createHash('sha256').update(token, 'utf8').digest();
  await sql`insert into plaudit.sessions (email, token_hash) values (${email}, ${hash})`;
  return token;
}

export default {
  name: 'dashboard-session',
  description:
    'GET /organizations/:orgId/reviews page 1 of 100,000 reviews with a member session (cookie) vs an API key, in one run',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-feed', positive(ctx.env, 'BENCH_REVIEWS', 100_000));
    const url = `${ctx.stack.api.url}/api/v1/organizations/${seed.orgId}/reviews`;
    const keyHeaders = { Authorization: `Bearer ${seed.key}` };
    const sessionHeaders = { Cookie: `plaudit_session=${await memberSession(ctx, seed.orgId)}` };
    const byKey = await expectStatus(url, { headers: keyHeaders }, 200);
    const bySession = await expectStatus(url, { headers: sessionHeaders }, 200);
    if (byKey.body !== bySession.body) throw new Error('the session and the key read different pages');
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url, headers: keyHeaders, seconds: ctx.warmup });
    await ctx.http({ url, headers: sessionHeaders, seconds: ctx.warmup });
    return { url, keyHeaders, sessionHeaders };
  },

  measurements: [
    { key: 'key', name: 'API key', run: (ctx, s) => ctx.http({ url: s.url, headers: s.keyHeaders }) },
    { key: 'session', name: 'member session', run: (ctx, s) => ctx.http({ url: s.url, headers: s.sessionHeaders }) },
  ],

  ratios: [{ name: 'session ÷ key', of: 'session', over: 'key', target: 0.9 }],
};
