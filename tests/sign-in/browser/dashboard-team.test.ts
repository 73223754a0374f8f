/// <reference lib="dom" />
// The team, the settings and the sign-in page in a real browser, as a shop owner and the person
// they invite use them: signing in with the mail's code or its link, inviting someone (the mail,
// the accept page, their first sign-in, and that they see this organization only), changing roles
// and the last owner's rule, removing a member (their session stops reaching the organization),
// withdrawing an invitation, renaming the organization, and signing out everywhere. axe-core finds
// no violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import {
  DESKTOP,
  openDashboard,
  PHONE,
  shot,
  type SignedInOwner,
  signedInOwner,
  type Viewport,
} from '../../helpers/dashboard.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, linkIn, local, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { addMember, personEmail, signIn, signInMail } from '../../helpers/sessions.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');
const SLOW = 90_000;

let owner: SignedInOwner;
let other: Tenant;
let worker: TestWorker;
const invitee = personEmail('invitee');
const inviteeName = 'Nia Newcomer';
let inviteeCookie = '';

const org = () => owner.tenant.org;
const appPath = (rest: string) => `/app/o/${org().id}${rest}`;
const orgApi = (rest = '') => `/api/v1/organizations/${org().id}${rest}`;

/** A page of a new browser context at `path`, signed in with `cookie` when given. */
async function open(path: string, cookie?: string, viewport: Viewport = DESKTOP): Promise<Page> {
  if (cookie) return await openDashboard(browser(), { cookie }, path, viewport);
  const context = await browser().newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base()}${path}`);
  return page;
}

async function withPage<T>(path: string, cookie: string | undefined, fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await open(path, cookie);
  try {
    return await fn(page);
  } finally {
    await page.context().close();
  }
}

/** Screenshots at 1,280 and 375 px, with no violation and no sideways scrolling at either width. */
async function checkAndShoot(page: Page, name: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${name} at ${viewport.width}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${viewport.width}`)
      .toBeLessThanOrEqual(viewport.width);
    await shot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The session cookie (`name=value`) the browser holds after signing in. */
async function browserCookie(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => /plaudit_session$/.test(x.name));
  if (!c) throw new Error('the browser holds no session cookie');
  return `${c.name}=${c.value}`;
}

const withCookie = (cookie: string, path: string) => api('GET', path, { headers: { cookie } });

/** The sign-in page as a person uses it: the address, the mail (the `nth` to this address), its code. */
async function signInWithCode(page: Page, email: string, nth: number, shots?: string) {
  await page.goto(`${base()}/app`);
  await page.getByRole('heading', { level: 1, name: 'Sign in to your reviews' }).waitFor();
  if (shots) await checkAndShoot(page, `${shots}-email`);
  await page.getByLabel('Work e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
  if (shots) await checkAndShoot(page, `${shots}-code`);
  const { code } = await signInMail(email, nth);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/app\/o\/[^/]+\/reviews$/);
  await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
}

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  worker = await mailWorker([org().id]);
  other = await createTenant();
  const ours = await createForm(owner.tenant, { verification_mode: 'none' });
  const theirs = await createForm(other, { verification_mode: 'none' });
  await postReviews(ours.id, org().slug, [
    [5, 'Lovely teapot', 'The glaze is even and it pours without a drip.', 'Ada A.'],
  ]);
  await postReviews(theirs.id, other.org.slug, [
    [1, 'Secret of the other shop', 'Nobody outside the other shop may read this.', 'Eve E.'],
  ]);
});
afterAll(async () => {
  await worker?.stop();
});

describe('the sign-in page', () => {
  const signer = personEmail('signer');
  beforeAll(async () => {
    await addMember(owner.tenant, signer, 'member', 'Sam Signer');
  });

  it('the e-mail address, then the code from the mail: lands in the inbox', async () => {
    await withPage('/app', undefined, async (page) => {
      await signInWithCode(page, signer, 1, 'sign-in');
      expect(page.url()).toBe(`${base()}${appPath('/reviews')}`);
      await page.getByRole('link', { name: 'Lovely teapot' }).waitFor();
      const session = await withCookie(await browserCookie(page), '/api/v1/auth/session');
      expect(session.status).toBe(200);
      expect(session.body.email).toBe(signer);
    });
  }, SLOW);

  it("the mail's link: lands in the inbox", async () => {
    await withPage('/app', undefined, async (page) => {
      await page.getByLabel('Work e-mail address').fill(signer);
      await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
      await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
      const { mail } = await signInMail(signer, 2);
      // The link as the mail has it, on the API under test (the token is in the fragment).
      const link = new URL(linkIn(mail.text, /\/app\/sign-in#token=/));
      await page.goto(`${base()}${link.pathname}${link.hash}`);
      await page.waitForURL(`${base()}${appPath('/reviews')}`);
      await page.getByRole('link', { name: 'Lovely teapot' }).waitFor();
      // The token has left the address bar.
      expect(page.url()).not.toContain('token');
    });
  }, SLOW);
});

describe('the team', () => {
  it('an owner invites someone: the invitation is pending, and the e-mail is on its way', async () => {
    await withPage(appPath('/team'), owner.session.cookie, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
      await page.getByRole('row').filter({ hasText: owner.email }).waitFor();
      await page.getByLabel('E-mail address').fill(invitee);
      await page.getByRole('radio', { name: /^Member/ }).check();
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: `Invitation sent to ${invitee}` }).count())
        .toBe(1);
      const row = page.getByRole('region', { name: /Pending invitations/ }).getByRole('row').filter({
        hasText: invitee,
      });
      await row.waitFor();
      expect(await row.textContent()).toContain('Member');

      const list = await api('GET', orgApi('/invitations'), { key: owner.tenant.keys.read });
      expect(list.body.data).toContainEqual(
        expect.objectContaining({ email: invitee, role: 'member', status: 'pending' }),
      );

      // Inviting the same address again: the API's answer, in words.
      await page.getByLabel('E-mail address').fill(invitee);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByRole('alert').filter({ hasText: 'This address already has an open invitation' }).waitFor();

      await page.reload();
      await page.getByRole('row').filter({ hasText: invitee }).waitFor();
      await checkAndShoot(page, 'team');
    });
    const [mail] = await waitForMail((to) => to === invitee, 1);
    expect(mail.subject).toBe(`You are invited to join ${org().name} on Plaudit`);
  }, SLOW);

  it('the invitee accepts from the e-mail, signs in, and sees this organization only', async () => {
    const [mail] = await waitForMail((to) => to === invitee, 1);
    await withPage('/app', undefined, async (page) => {
      // The link in the e-mail: the accept page asks for a name.
      await page.goto(local(linkIn(mail.text, /\/invitations\//)));
      await page.getByRole('heading', { level: 1, name: `Join ${org().name} on Plaudit` }).waitFor();
      await page.getByLabel('Your name').fill(inviteeName);
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.getByRole('heading', { level: 1, name: `Welcome to ${org().name}` }).waitFor();

      // Then the dashboard's sign-in page, with the code (their second mail).
      await signInWithCode(page, invitee, 2);
      expect(page.url()).toBe(`${base()}${appPath('/reviews')}`);
      inviteeCookie = await browserCookie(page);
      await page.getByRole('link', { name: 'Lovely teapot' }).waitFor();
      const topbar = page.locator('.topbar');
      expect(await topbar.textContent()).toContain(org().name);
      // One organization: no switcher, and the other tenant's name is nowhere.
      expect(await page.getByRole('combobox', { name: 'Organization' }).count()).toBe(0);
      expect(await page.locator('body').textContent()).not.toContain(other.org.name);
      expect(await page.locator('body').textContent()).not.toContain('Secret of the other shop');

      // Another tenant's address leads back to their own organization, with none of its data.
      await page.goto(`${base()}/app/o/${other.org.id}/reviews`);
      await page.waitForURL(`${base()}${appPath('/reviews')}`);
      await page.getByRole('link', { name: 'Lovely teapot' }).waitFor();
      expect(await page.locator('body').textContent()).not.toContain('Secret of the other shop');
      expect(await page.locator('body').textContent()).not.toContain(other.org.name);

      // A member sees the team, read-only.
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Team' }).click();
      await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
      await page.getByRole('row').filter({ hasText: owner.email }).waitFor();
      expect(await page.getByRole('row').filter({ hasText: invitee }).textContent()).toContain(inviteeName);
      expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Remove|Change role)/ }).count()).toBe(0);
      expect(await page.getByRole('status').filter({ hasText: 'owners and admins invite people' }).count()).toBe(1);
      await checkAndShoot(page, 'team-as-member');

      // Their settings: their account; the organization's details to read, not to change.
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 2, name: 'Your account' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign out everywhere…' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
      expect(await page.locator('main').textContent()).toContain(org().name);
    });

    // Through the API with the invitee's cookie: their organization, and not the other one.
    expect((await withCookie(inviteeCookie, orgApi('/reviews'))).status).toBe(200);
    const theirs = await withCookie(inviteeCookie, `/api/v1/organizations/${other.org.id}/reviews`);
    expect(theirs.status).toBe(403);
    const session = await withCookie(inviteeCookie, '/api/v1/auth/session');
    expect(session.body.organizations.map((o: { id: string }) => o.id)).toEqual([org().id]);
    const list = await api('GET', orgApi('/invitations'), { key: owner.tenant.keys.read });
    expect(list.body.data.find((i: { email: string }) => i.email === invitee).status).toBe('accepted');
  }, SLOW);

  it('the owner makes the member an admin and back; demoting the last owner is refused in words', async () => {
    const roleOf = async (email: string) => {
      const res = await api('GET', orgApi('/members'), { key: owner.tenant.keys.read });
      return res.body.data.find((m: { email: string }) => m.email === email)?.role;
    };
    await withPage(appPath('/team'), owner.session.cookie, async (page) => {
      const row = page.getByRole('row').filter({ hasText: invitee });
      await row.waitFor();
      for (const [role, label, words] of [['admin', 'Admin', 'an admin'], ['member', 'Member', 'a member']]) {
        await page.getByRole('button', { name: `Change role of ${inviteeName}` }).click();
        await page.getByLabel(`New role for ${inviteeName}`).selectOption(role);
        await page.getByRole('button', { name: 'Save role' }).click();
        await page.getByRole('status').filter({ hasText: `${inviteeName} is now ${words}.` }).waitFor();
        await expect.poll(() => row.textContent()).toContain(label);
        expect(await roleOf(invitee)).toBe(role);
        // Their next request acts with the new role's scope.
        const s = await withCookie(inviteeCookie, '/api/v1/auth/session');
        expect(s.body.organizations[0].scope).toBe(role === 'admin' ? 'admin' : 'write');
      }

      await page.getByRole('button', { name: 'Change role of Olga Owner' }).click();
      await page.getByLabel('New role for Olga Owner').selectOption('admin');
      await page.getByRole('button', { name: 'Save role' }).click();
      await page.getByRole('button', { name: 'Yes, change my role' }).click();
      await page.getByRole('alert').filter({ hasText: 'An organization keeps at least one owner' }).waitFor();
      expect(await roleOf(owner.email)).toBe('owner');
      // Back at the choice of role, which still says owner in the list.
      await page.getByLabel('New role for Olga Owner').waitFor();
      expect(await page.getByRole('row').filter({ hasText: owner.email }).first().textContent()).toContain('Owner');
      await shot(page, 'team-last-owner-1280');
      await page.getByRole('button', { name: 'Cancel' }).click();
    });
  }, SLOW);

  it('the owner withdraws an invitation after confirming: its link stops working', async () => {
    const late = personEmail('late');
    await withPage(appPath('/team'), owner.session.cookie, async (page) => {
      await page.getByLabel('E-mail address').fill(late);
      await page.getByRole('radio', { name: /^Admin/ }).check();
      await page.getByRole('button', { name: 'Send invitation' }).click();
      const row = page.getByRole('row').filter({ hasText: late });
      await row.waitFor();
      expect(await row.textContent()).toContain('Admin');
      await page.getByRole('button', { name: `Withdraw the invitation to ${late}` }).click();
      await page.getByText(`Withdraw the invitation to ${late}?`).waitFor();
      await page.getByRole('button', { name: 'Yes, withdraw it' }).click();
      await page.getByRole('status').filter({ hasText: `The invitation to ${late} is withdrawn` }).waitFor();
      await expect.poll(() => row.count()).toBe(0);
    });
    const list = await api('GET', orgApi('/invitations'), { key: owner.tenant.keys.read });
    expect(list.body.data.find((i: { email: string }) => i.email === late).status).toBe('revoked');
    const [mail] = await waitForMail((to) => to === late, 1);
    expect((await fetch(local(linkIn(mail.text, /\/invitations\//)))).status).toBe(410);
  }, SLOW);

  it("the owner removes the member after confirming: the member's next request is refused", async () => {
    await withPage(appPath('/team'), owner.session.cookie, async (page) => {
      const row = page.getByRole('row').filter({ hasText: invitee });
      await row.waitFor();
      await page.getByRole('button', { name: `Remove ${inviteeName}` }).click();
      await page.getByText(`Remove ${inviteeName} from ${org().name}?`).waitFor();
      await page.getByRole('button', { name: `Yes, remove ${inviteeName}` }).click();
      await page.getByRole('status').filter({ hasText: `${inviteeName} is removed from the team.` }).waitFor();
      await expect.poll(() => row.count()).toBe(0);
    });
    const members = await api('GET', orgApi('/members'), { key: owner.tenant.keys.read });
    expect(members.body.data.map((m: { email: string }) => m.email)).not.toContain(invitee);
    const refused = await withCookie(inviteeCookie, orgApi('/reviews'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You are not a member of this organization');
    // Their dashboard says so.
    await withPage('/app', inviteeCookie, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'No organization yet' }).waitFor();
    });
  }, SLOW);
});

describe('the settings', () => {
  it('renames the organization and sets its website; a website the API refuses is named at its field', async () => {
    const name = `Teapots of ${org().slug}`;
    await withPage(appPath('/settings'), owner.session.cookie, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      expect(await page.getByLabel('Public review page').inputValue()).toBe(`${base()}/p/${org().slug}`);
      await checkAndShoot(page, 'settings');

      await page.getByLabel('Website (optional)').fill('ftp://teapots.example');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const website = page.getByLabel('Website (optional)');
      await expect.poll(() => website.getAttribute('aria-invalid')).toBe('true');
      const described = await website.getAttribute('aria-describedby');
      expect(await page.locator(`#${described!.split(' ').at(-1)}`).textContent()).toMatch(/http/);

      await page.getByLabel('Name', { exact: true }).fill(name);
      await website.fill('https://teapots.example');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // The top bar reads the session, which is reloaded.
      await expect.poll(() => page.locator('.topbar').textContent()).toContain(name);
    });
    const res = await api('GET', orgApi(), { key: owner.tenant.keys.read });
    expect(res.body).toMatchObject({ name, website: 'https://teapots.example', slug: org().slug });
  }, SLOW);

  it('sign out everywhere ends every session of the person', async () => {
    // A second session, as on another device.
    const elsewhere = await signIn(owner.email, 2);
    expect((await withCookie(elsewhere.cookie, '/api/v1/auth/session')).status).toBe(200);
    await withPage(appPath('/settings'), owner.session.cookie, async (page) => {
      await page.getByRole('button', { name: 'Sign out everywhere…' }).click();
      await page.getByText('Sign out on every device?').waitFor();
      await page.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in to your reviews' }).waitFor();
    });
    expect((await withCookie(owner.session.cookie, '/api/v1/auth/session')).status).toBe(401);
    expect((await withCookie(elsewhere.cookie, '/api/v1/auth/session')).status).toBe(401);
  }, SLOW);
});
