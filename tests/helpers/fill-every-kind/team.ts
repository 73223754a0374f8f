// The organization and who acts for it: its first key and owner (as the admin command line makes
// them), more keys, invitations and the owner's dashboard sessions.
import {
  expectAnswer,
  type Flavour,
  LINK_BASE,
  newestMail,
  type Org,
  organization,
  type Schema,
  sha256,
  type Sql,
  tokenOf,
} from './context.ts';

/** As the admin command line: the organization, its first admin key and its owner. */
export async function createOrganization(sql: Sql, schema: Schema, flavour: Flavour): Promise<Org> {
  const { slug } = flavour;
  const [org] = await sql<{ id: string }[]>`
    insert into plaudit.organizations (name, slug, website)
    values (${slug.toUpperCase()}, ${slug}, ${`https://${slug}.example`}) returning id`;
  const [admin] = await sql<{ id: string; key: string }[]>`
    select id, key from plaudit.issue_api_key(${org.id}, 'Initial admin key', 'admin')`;
  const [owner] = await sql<{ id: string }[]>`
    insert into plaudit.members (org_id, email, name, role)
    values (${org.id}, ${`owner@${slug}.example`}, 'Olga Owner', 'owner') returning id`;
  return organization(sql, schema, flavour, { id: org.id, ownerMemberId: owner.id, admin });
}

/** A request authenticated with the admin key, and keys: one rotated with a grace period, one revoked. */
export async function fillKeys(org: Org) {
  await org.authenticator((tx) => tx`select * from plaudit.authenticate(${sha256(org.admin.key)}, 600)`);
  await org.tenant(async (tx) => {
    const [reader] = await tx<{ id: string }[]>`select id from plaudit.issue_api_key(${org.id}, 'Widget', 'read')`;
    const [writer] = await tx<{ id: string }[]>`select id from plaudit.issue_api_key(${org.id}, 'Shop', 'write', 120)`;
    const rotated = await tx`select id from plaudit.rotate_api_key(${reader.id}, 3600)`;
    expectAnswer('rotate_api_key', rotated.length, 1);
    await tx`update plaudit.api_keys set revoked_at = now() where id = ${writer.id}`;
  });
}

/** Invitations, each with its e-mail: one left open, one accepted, one withdrawn. */
export async function fillInvitations(org: Org) {
  const invite = (email: string, role: string) =>
    org.tenant(async (tx) => {
      const [i] = await tx<{ id: string; token: string }[]>`
        select id, token from plaudit.create_invitation(${org.id}, ${email}, ${role}, ${org.admin.id})`;
      await tx`select plaudit.queue_invitation_email(${i.id}, ${i.token}, ${LINK_BASE})`;
      return i;
    });
  await invite(`open-invitation@${org.domain}`, 'member');
  const accepted = await invite(`admin@${org.domain}`, 'admin');
  const [{ outcome }] = await org.publicly((tx) =>
    tx`select plaudit.accept_invitation(${accepted.token}, 'Adam Admin') as outcome`
  );
  expectAnswer('accept_invitation', outcome, 'accepted');
  const withdrawn = await invite(`withdrawn@${org.domain}`, 'member');
  await org.tenant((tx) => tx`update plaudit.invitations set revoked_at = now() where id = ${withdrawn.id}`);
}

/** Sign-in: by the mail's link (a live session, used since), then by its code (a session ended). */
export async function fillSessions(org: Org) {
  const requestSignIn = async () => {
    const [{ outcome }] = await org.authenticator((tx) =>
      tx`select plaudit.request_sign_in(${org.owner}, '203.0.113.7', ${LINK_BASE}) as outcome`
    );
    expectAnswer('request_sign_in', outcome, 'sent');
    return (await newestMail(org.sql, 'sign_in', org.owner)).data as { link: string; code: string };
  };
  const signIn = async (token: string | null, code: string | null) => {
    const [s] = await org.authenticator((tx) =>
      tx<{ outcome: string; session_token: string }[]>`
        select * from plaudit.verify_sign_in(${token}, ${
        token ? null : org.owner
      }, ${code}, 'Mozilla/5.0 (upgrade test)')`
    );
    expectAnswer('verify_sign_in', s.outcome, 'signed_in');
    return sha256(s.session_token);
  };
  const live = await signIn(tokenOf((await requestSignIn()).link), null);
  await org.authenticator((tx) => tx`select * from plaudit.authenticate_session(${live}, ${org.id}, 600)`);
  const ended = await signIn(null, (await requestSignIn()).code);
  await org.authenticator((tx) => tx`select plaudit.end_session(${ended}, false)`);
}
