/// <reference lib="dom" />
// The transparency page's DSA year and the review policy page in a real browser: the year's figures
// as the admin report counts them, another year reached through the picker, the policy reached from
// the transparency page with the business's own sections as typed (markup shown as text), both
// readable at 375 and 1,280 px with no axe-core violation; and the dashboard's editor of the policy's
// own sections, its preview, saved to the page. Screenshots: $TEST_TMP_DIR/screenshots.
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');
const LAST = new Date().getUTCFullYear() - 1;
const OWN =
  'Staff and their families do not review us.\n\nQuestions? Write to <b>care@fjord.example</b> [mail](javascript:x)';

let owner: SignedInOwner;
let slug: string;

beforeAll(async () => {
  owner = await signedInOwner();
  const t = owner.tenant;
  slug = t.org.slug;
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { display_name: 'Fjord Coffee Roasters', review_policy: OWN },
  });
  const form = await createForm(t, { incentive: { type: 'discount', description: '10% off your next bag' } });
  const ids = await postReviews(form.id, slug, [
    [5, 'Best beans in town', 'Fruity and bright.', 'Ingrid H.'],
    [1, 'Buy cheap watches', 'www.watches.example', 'Spam Bot'],
    [1, 'Awful', 'The owner is a crook', 'Mallory'],
  ]);
  const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${ids[1]}/moderate`, {
    key: t.keys.write,
    body: {
      action: 'hide',
      reason: 'Advertises watches',
      ground: { type: 'policy', text: 'Clause 2: no advertising' },
    },
  });
  expect(hidden.status).toBe(200);
  // Last year: two notices, one decided (kept) after three hours.
  await db`
    insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith, status,
                                        decision, resolution, resolved_at, resolved_by, created_at)
    values (${t.org.id}, ${ids[2]}, 'other', sha256('a'::bytea), 'illegal', 'Defamation law', true, 'resolved', 'kept',
            'Opinion', make_timestamptz(${LAST}, 3, 1, 3, 0, 0, 'UTC'), 'member:m1', make_timestamptz(${LAST}, 3, 1, 0, 0, 0, 'UTC')),
           (${t.org.id}, ${ids[2]}, 'other', sha256('b'::bytea), 'policy', null, true, 'open', null, null, null, null,
            make_timestamptz(${LAST}, 6, 1, 0, 0, 0, 'UTC'))`;
});

describe('the public pages in a browser', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`show the DSA year and the policy at ${viewport.width} px, readable and without violations`, async () => {
      const context = await browser().newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/p/${slug}/transparency`);
        const now = new Date().getUTCFullYear();
        await page.getByRole('heading', { name: `Notices, hidden reviews and appeals in ${now}` }).waitFor();
        const cell = (caption: string, row: string) =>
          page.getByRole('table', { name: caption }).getByRole('row', {
            name: new RegExp(`^${row.replace(/[()]/g, '\\$&')}`),
          })
            .locator('td');
        expect(await cell(`Reviews hidden on the business's own initiative, ${now}`, 'By a person').textContent())
          .toBe('1');
        expect(
          await cell(
            `Reviews hidden on the business's own initiative, ${now}`,
            'Policy: Clause 2: no advertising (by a person)',
          )
            .textContent(),
        ).toBe('1');
        const years = page.getByRole('navigation', { name: 'Year of the figures' });
        expect(await years.getByRole('link').allTextContents()).toEqual([String(now), String(LAST)]);
        await years.getByRole('link', { name: String(LAST) }).click();
        await page.getByRole('heading', { name: `Notices, hidden reviews and appeals in ${LAST}` }).waitFor();
        const admin = (await api('GET', `/api/v1/organizations/${owner.tenant.org.id}/transparency/dsa?year=${LAST}`, {
          key: owner.tenant.keys.admin,
        })).body;
        expect(await cell(`Notices of reviews received, by kind, ${LAST}`, 'All notices received').textContent())
          .toBe(String(admin.notices.received.total));
        expect(await cell(`Notices decided, ${LAST}`, 'Median time to decide').textContent()).toBe('3.0 h');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.locator('#dsa').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(screenshotDir(), `dsa-year-${viewport.width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('link', { name: 'the review policy of Fjord Coffee Roasters' }).click();
        await page.waitForURL(/\/policy$/);
        expect(await page.locator('h1').textContent()).toBe('Review policy of Fjord Coffee Roasters');
        await page.getByText(
          'offers a reward for a review written on some of its forms: a discount (10% off your next bag).',
        )
          .waitFor();
        expect(await page.locator('#hidden li').allTextContents()).toEqual([
          'Policy: Clause 2: no advertising (1 review)',
        ]);
        const own = page.locator('#own p');
        expect(await own.allTextContents()).toEqual([
          'Staff and their families do not review us.',
          'Questions? Write to <b>care@fjord.example</b> [mail](javascript:x)',
        ]);
        expect(await page.locator('#own b, #own a').count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({ path: path.join(screenshotDir(), `policy-${viewport.width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe("the dashboard's editor of the policy's own sections", () => {
  it('previews the text as the page shows it and saves it to the page', async () => {
    const t = owner.tenant;
    for (const viewport of [PHONE, DESKTOP]) {
      await onDashboardPage(browser(), owner.session, `/app/o/${t.org.id}/widget`, async (page) => {
        await page.getByRole('heading', { level: 1, name: 'Widget and public page' }).waitFor();
        const field = page.getByLabel('Your own sections');
        expect(await field.inputValue()).toBe(OWN);
        const preview = page.locator('.policy-preview p');
        expect(await preview.count()).toBe(2);
        if (viewport === DESKTOP) {
          await field.fill('We reply to every review within two days.\n\n<i>Thanks</i>');
          expect(await preview.allTextContents()).toEqual([
            'We reply to every review within two days.',
            '<i>Thanks</i>',
          ]);
          await page.getByRole('button', { name: 'Save changes' }).click();
          await page.getByText('Saved. Visitors').waitFor();
          const html = (await api('GET', `/p/${slug}/policy`)).body as string;
          expect(html).toContain('<p>We reply to every review within two days.</p><p>&lt;i&gt;Thanks&lt;/i&gt;</p>');
        }
        await page.locator('#policy-heading').scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `review-policy-${viewport.width}`);
      }, viewport);
    }
  }, 120_000);
});
