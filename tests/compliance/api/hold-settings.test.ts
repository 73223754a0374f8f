// The review bombing thresholds over HTTP (`GET|PATCH …/holds/settings`): the defaults until
// changed; an admin signed in to the dashboard changes the fields given (an API key, even an admin
// one, gets 403; a member without the admin role too); out-of-range values are 422 and change
// nothing; another tenant cannot read or change them. The detection uses them: twelve one-star
// reviews from six addresses are no burst above a raised `min_reviews`, and six from three are one
// below lowered thresholds (plaudit.detect_review_bursts, as the worker's burst lane calls it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { mailWorker } from '../../helpers/review-requests.ts';
import { createForm, freshIp, ownApiServer, submit } from '../../helpers/reviews.ts';
import { addMember, asSession, personEmail, type Session, signIn } from '../../helpers/sessions.ts';

const server = ownApiServer();
let t: Tenant;
let other: Tenant;
let admin: Session;
let member: Session;
let otherAdmin: Session;
let worker: Awaited<ReturnType<typeof mailWorker>>;

const settingsPath = (tenant: Tenant) => `/api/v1/organizations/${tenant.org.id}/holds/settings`;
const DEFAULTS = { min_reviews: 10, min_addresses: 5, median_factor: 5, min_low_share: 0.5 };

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  const adminEmail = personEmail('thresholds-admin');
  const memberEmail = personEmail('thresholds-member');
  await addMember(t, adminEmail, 'admin', 'Ada Admin');
  await addMember(t, memberEmail, 'member', 'Mo Member');
  const otherAdminEmail = personEmail('thresholds-other-admin');
  await addMember(other, otherAdminEmail, 'admin', 'Oli Admin');
  // The worker sends the sign-in mails.
  worker = await mailWorker([t.org.id, other.org.id]);
  admin = await signIn(adminEmail);
  member = await signIn(memberEmail);
  otherAdmin = await signIn(otherAdminEmail);
});
afterAll(async () => {
  await worker?.stop();
});

describe('GET and PATCH …/holds/settings', () => {
  it('answers the defaults until changed, to any key of the organization', async () => {
    const res = await api('GET', settingsPath(t), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULTS);
  });

  it('refuses an API key, even an admin one, and a member without the admin role; nothing changes', async () => {
    const byKey = await api('PATCH', settingsPath(t), { key: t.keys.admin, body: { min_reviews: 50 } });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual(
      errorBody(403, 'Forbidden', 'Hold thresholds are changed by an admin of the team, signed in to the dashboard'),
    );
    const byMember = await asSession(member, 'PATCH', settingsPath(t), { body: { min_reviews: 50 } });
    expect(byMember.body).toEqual(
      errorBody(403, 'Forbidden', 'This action needs the admin scope; your role acts with write'),
    );
    expect((await api('GET', settingsPath(t), { key: t.keys.read })).body).toEqual(DEFAULTS);
  });

  it('is changed by a signed-in admin, the fields given only; out-of-range values are 422 and change nothing', async () => {
    const res = await asSession(admin, 'PATCH', settingsPath(t), { body: { min_reviews: 20, min_low_share: 0.75 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...DEFAULTS, min_reviews: 20, min_low_share: 0.75 });
    for (
      const body of [{ min_reviews: 1 }, { min_addresses: 100_001 }, { median_factor: 0.5 }, { min_low_share: 1.5 }]
    ) {
      const bad = await asSession(admin, 'PATCH', settingsPath(t), { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(Object.keys(body));
    }
    const wrongType = await asSession(admin, 'PATCH', settingsPath(t), { body: { min_reviews: 12.5 } });
    expect(wrongType.status).toBe(422);
    expect((await api('GET', settingsPath(t), { key: t.keys.read })).body).toEqual({
      ...DEFAULTS,
      min_reviews: 20,
      min_low_share: 0.75,
    });
  });

  it("are another organization's own: its key gets 403 here, and its thresholds stay the defaults", async () => {
    expect((await api('GET', settingsPath(t), { key: other.keys.admin })).status).toBe(403);
    expect((await api('GET', settingsPath(other), { key: other.keys.read })).body).toEqual(DEFAULTS);
  });
});

describe('the detection', () => {
  /** One-star reviews of the business, `perAddress` from each of `addresses` addresses; then a look at the hour. */
  async function burstOf(tenant: Tenant, addresses: number, perAddress: number) {
    const formId = (await createForm(server.call, tenant)).id;
    const ips = Array.from({ length: addresses }, () => freshIp());
    for (let i = 0; i < addresses * perAddress; i++) {
      const res = await submit(
        server.call,
        formId,
        { rating: 1, content: `Never again, order ${i}` },
        ips[i % addresses],
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const [{ latest }] = await db<{ latest: Date }[]>`
      select max(created_at) as latest from plaudit.reviews where org_id = ${tenant.org.id}`;
    return db<{ subject: string }[]>`
      select subject from plaudit.detect_review_bursts(${new Date(
      latest.getTime() + 1000,
    )}, array[${tenant.org.id}]::uuid[])`;
  }

  it('holds nothing above raised thresholds, and holds a smaller burst below lowered ones', async () => {
    // t's min_reviews is 20 (above): twelve from six addresses would make a burst by default.
    expect(await burstOf(t, 6, 2)).toEqual([]);
    // Six from three addresses are below the defaults; other lowers them.
    const res = await asSession(otherAdmin, 'PATCH', settingsPath(other), {
      body: { min_reviews: 3, min_addresses: 3 },
    });
    expect(res.status).toBe(200);
    expect(await burstOf(other, 3, 2)).toEqual([{ subject: 'business' }]);
  });
});
