// The hosted form's thank-you page leads back to the business: to its website when it has one (an
// http(s) URL, escaped), else to its public profile when the profile is enabled, else nowhere.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, freshIp, ownApiServer } from '../../helpers/reviews.ts';

const server = ownApiServer();

let t: Tenant;
let form: { id: string };

beforeAll(async () => {
  t = await createTenant();
  form = await createForm(server.call, t);
});

/** The thank-you page of one review sent from the hosted form. */
async function thankYouPage(email: string) {
  const res = await fetch(`${server.url}/forms/${form.id}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
    body: new URLSearchParams({ rating: '5', content: 'Lovely', reviewer_name: 'Ida', reviewer_email: email })
      .toString(),
  });
  expect(res.status).toBe(201);
  const html = await res.text();
  expect(html).toContain('Thank you for your review');
  return html;
}

const setWebsite = (website: string | null) =>
  db`update plaudit.organizations set website = ${website} where id = ${t.org.id}`;
const setProfile = (enabled: boolean, website: string | null = null) =>
  db`insert into plaudit.public_profiles (org_id, enabled, website) values (${t.org.id}, ${enabled}, ${website})
     on conflict (org_id) do update set enabled = excluded.enabled, website = excluded.website`;

describe("the thank-you page's way back", () => {
  it("links to the organization's website, escaped, with rel=noopener", async () => {
    await setWebsite('https://shop.example/?a=1&b="x"');
    const html = await thankYouPage('website@example.com');
    expect(html).toContain(
      `<a class="button" href="https://shop.example/?a=1&amp;b=&quot;x&quot;" rel="noopener">Back to ${t.org.name}</a>`,
    );
  });

  it("prefers the profile's own website, as the profile page shows it", async () => {
    await setProfile(true, 'https://profile.example/');
    const html = await thankYouPage('profile-website@example.com');
    expect(html).toContain('href="https://profile.example/" rel="noopener"');
    expect(html).not.toContain('shop.example');
  });

  it('links to the public profile when there is no website, or it is not an http(s) URL', async () => {
    await setProfile(true);
    for (const website of [null, 'javascript:alert(1)']) {
      await setWebsite(website);
      const html = await thankYouPage(`profile-${website ? 'js' : 'none'}@example.com`);
      expect(html).toContain(`<a class="button" href="/p/${t.org.slug}">See ${t.org.name}'s reviews</a>`);
      expect(html).not.toContain('javascript:');
    }
    const profile = await fetch(`${server.url}/p/${t.org.slug}`);
    expect(profile.status).toBe(200);
  });

  it('has no link when there is no website and the profile is switched off', async () => {
    await setWebsite(null);
    await setProfile(false);
    const html = await thankYouPage('nowhere@example.com');
    expect(html).not.toContain('class="button"');
    expect(html).not.toContain('/p/');
  });
});
