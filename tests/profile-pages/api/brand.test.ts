// One brand everywhere a customer looks: the hosted form, the review-request landing page and the
// e-mails name the business by its public profile's display name, and the pages show its logo.
import { afterAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, linkIn, local, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const workers: TestWorker[] = [];
afterAll(() => Promise.all(workers.map((w) => w.stop())));

describe('one brand', () => {
  it('the form, the e-mail and the landing page show the display name and the logo, not the legal name', async () => {
    const t = await createTenant();
    const brand = 'Fjord Coffee';
    const logo = 'https://cdn.example/fjord.png';
    expect(
      (await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
        key: t.keys.admin,
        body: { display_name: brand, logo_url: logo },
      })).status,
    ).toBe(200);
    const form = await createForm(t);

    const page = await (await fetch(local(form.submission_url))).text();
    expect(page).toContain(`<img class="logo" src="${logo}" alt="${brand} logo"`);
    expect(page).toContain(`<p class="org">${brand}</p>`);
    expect(page).toContain(`<title>Review ${brand}</title>`);
    expect(page).not.toContain(t.org.name);

    workers.push(await mailWorker([t.org.id]));
    const to = `ann@${t.org.slug}.example.com`;
    expect(
      (await api('POST', `/api/v1/organizations/${t.org.id}/review-requests`, {
        key: t.keys.write,
        body: { email: to, name: 'Ann', form_id: form.id },
      })).status,
    ).toBe(201);
    const [mail] = await waitForMail((x) => x === to, 1);
    expect(mail.subject).toContain(brand);
    expect(mail.text).toContain(brand);
    expect(mail.text).not.toContain(t.org.name);

    const landing = local(linkIn(mail.text, /\/t\/c\/[^?\s]+$/).replace('/t/c/', '/r/'));
    const landingPage = await (await fetch(landing)).text();
    expect(landingPage).toContain(`<img class="logo" src="${logo}"`);
    expect(landingPage).toContain(brand);
    expect(landingPage).not.toContain(t.org.name);
  });
});
