// The moderation trail's head, published where others keep copies, and checked against a head
// kept earlier: a rewrite of history by whoever controls the database (here the superuser, with
// triggers off and the chain recomputed) still passes the plain check, but no longer matches a
// head saved before it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;
let t: Tenant;
let reviewId: string;

beforeAll(async () => {
  t = await createTenant();
  const form = await createForm(call, t);
  reviewId = (await submitOk(call, form.id)).id;
});

const chainPath = () => `/api/v1/organizations/${t.org.id}/moderation-chain`;
const moderate = (action: 'hide' | 'unhide', reason = 'checked') =>
  call('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
    key: t.keys.write,
    body: { action, reason },
  });

describe('the moderation chain head', () => {
  it('starts empty, and each moderation moves it; the trail verifies', async () => {
    const empty = await call('GET', chainPath(), { key: t.keys.read });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ entries: 0, head: null, valid: true, problem: null, earlier_head: null });
    expect((await moderate('hide')).status).toBe(200);
    const one = await call('GET', chainPath(), { key: t.keys.read });
    expect(one.body).toEqual({
      entries: 1,
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
      valid: true,
      problem: null,
      earlier_head: null,
    });
    const [entry] =
      await db`select encode(hash, 'hex') as hash from plaudit.moderation_trail where org_id = ${t.org.id} and seq = 1`;
    expect(one.body.head).toBe(entry.hash);
  });

  it('is published on the public profile, in review.moderated events and with each export', async () => {
    const { body: status } = await call('GET', chainPath(), { key: t.keys.read });
    const head = { entries: status.entries, head: status.head };
    const profile = await call('GET', `/api/v1/public/profiles/${t.org.slug}`);
    expect(profile.body.moderation_chain).toEqual(head);
    const embed = await call('GET', `/api/v1/public/embed/${t.org.slug}`);
    expect(embed.status).toBe(200);
    const [event] = await db`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'review.moderated' order by created_at desc limit 1`;
    expect(event.data.moderation_chain).toEqual(head);
    const made = await call('POST', `/api/v1/organizations/${t.org.id}/exports`, {
      key: t.keys.write,
      body: { format: 'csv' },
    });
    expect(made.status).toBe(201);
    expect(made.body.moderation_chain).toEqual(head);

    // A moderation that leaves the public reviews as they are still moves the profile's head:
    // its ETag revalidates to the new one.
    const etag = profile.headers.get('etag')!;
    expect((await moderate('unhide')).status).toBe(200);
    const after = await call('GET', `/api/v1/public/profiles/${t.org.slug}`, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.moderation_chain.entries).toBe(2);
  });

  it('a rewrite of history passes the plain check but fails against a head kept earlier', async () => {
    const { body: kept } = await call('GET', chainPath(), { key: t.keys.read });
    expect(kept.entries).toBe(2);
    const [first] =
      await db`select encode(hash, 'hex') as hash from plaudit.moderation_trail where org_id = ${t.org.id} and seq = 1`;
    const still = await call('GET', `${chainPath()}?entries=1&head=${first.hash}`, { key: t.keys.read });
    expect(still.body).toMatchObject({
      valid: true,
      earlier_head: { entries: 1, head: first.hash, matches: true, problem: null },
    });

    // The operator: triggers off for the session, entry 1's reason edited, the chain recomputed.
    await db.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update plaudit.moderation_trail set reason = 'never happened' where org_id = ${t.org.id} and seq = 1`;
      for (const seq of [1, 2]) {
        await tx`
          update plaudit.moderation_trail e set
            previous_hash = coalesce((select p.hash from plaudit.moderation_trail p where p.org_id = e.org_id and p.seq = e.seq - 1),
                                     '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea),
            hash = plaudit.moderation_entry_hash(
              coalesce((select p.hash from plaudit.moderation_trail p where p.org_id = e.org_id and p.seq = e.seq - 1),
                       '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea),
              e.org_id, e.seq, e.review_id, e.action, e.reason, e.actor, e.created_at)
          where e.org_id = ${t.org.id} and e.seq = ${seq}`;
      }
      await tx`
        update plaudit.moderation_chain_heads h set last_hash = (select hash from plaudit.moderation_trail where org_id = h.org_id and seq = 2)
        where h.org_id = ${t.org.id}`;
    });

    const plain = await call('GET', chainPath(), { key: t.keys.read });
    expect(plain.body).toMatchObject({ entries: 2, valid: true });
    expect(plain.body.head).not.toBe(kept.head);
    const against = await call('GET', `${chainPath()}?entries=2&head=${kept.head}`, { key: t.keys.read });
    expect(against.body).toMatchObject({
      valid: false,
      problem: "entry 2 no longer has the earlier head's hash: the trail up to it was rewritten",
      earlier_head: { entries: 2, head: kept.head, matches: false },
    });
    const againstFirst = await call('GET', `${chainPath()}?entries=1&head=${first.hash}`, { key: t.keys.read });
    expect(againstFirst.body).toMatchObject({ valid: false, earlier_head: { matches: false } });
    const beyond = await call('GET', `${chainPath()}?entries=5&head=${kept.head}`, { key: t.keys.read });
    expect(beyond.body.problem).toBe(
      'the chain holds 2 entries, fewer than the 5 of the earlier head: entries were removed',
    );
  });

  it('refuses half a head, or a head that is not hex, with 400', async () => {
    const half = await call('GET', `${chainPath()}?entries=1`, { key: t.keys.read });
    expect(half.status).toBe(400);
    expect(half.body.message).toBe('entries and head: give both, or neither');
    const bad = await call('GET', `${chainPath()}?entries=1&head=xyz`, { key: t.keys.read });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^head: must be 64 lowercase hexadecimal characters/);
  });
});
