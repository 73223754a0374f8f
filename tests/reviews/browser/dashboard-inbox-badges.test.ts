/// <reference lib="dom" />
// The inbox marks what a shop owner needs to tell reviews apart at a glance: a review imported
// from another platform says which ("Imported from Judge.me"), and a review with photos or videos
// says how many ("2 photos"); a review sent through a form carries neither. Each state has its
// tone, as the other badges give it: a rejected review's badge is red as a failure's, a hidden
// review's too, a pending one's waits in amber, a verified one's is green, and only "Not verified"
// is plain. The badges are text, so a screen reader reads them as they show. axe-core finds no
// violation; screenshots at 390 and 1,280 px.
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { onDashboardPage, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();

let owner: SignedInOwner;

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  const form = await createForm(owner.tenant, { verification_mode: 'none' });
  const [photos, plain] = await postReviews(form.id, `badges-${owner.tenant.org.id}`, [
    [5, 'See for yourself', 'The glaze is even nicer in daylight.', 'Pia P.'],
    [3, 'Plain words', 'Nothing to add, nothing to show.', 'Nat N.'],
  ]);
  // As an import writes it: from Judge.me (the import itself: tests/trust/api/imports.test.ts).
  await db`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, verification_status,
                                 created_at, source, source_platform, imported_as_verified, import_key)
    values (${owner.tenant.org.id}, ${form.id}, 4, 'Brought over', 'Written on our old shop, years ago.', 'Ivy I.',
            'unverified', now() - interval '1 year', 'import', 'judgeme', false, sha256('judgeme:badges-1'::bytea))`;
  for (const seed of [1, 2]) {
    const res = await upload(photos, await jpegWithGps(40, 30, seed), { key: owner.tenant.keys.write });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  expect(plain).toBeTruthy();
  const manual = await createForm(owner.tenant, { verification_mode: 'manual' });
  const [rejected, , hidden, approved] = await postReviews(manual.id, `states-${owner.tenant.org.id}`, [
    [1, 'Turned away', 'Not a customer of ours, as far as we can tell.', 'Rex R.'],
    [4, 'Still waiting', 'Sent today, and not approved yet.', 'Wes W.'],
    [2, 'Taken down', 'Approved, and hidden later on.', 'Hal H.'],
    [5, 'Let in', 'Approved by the shop.', 'Ada A.'],
  ]);
  const key = owner.tenant.keys.write;
  const orgPath = `/api/v1/organizations/${owner.tenant.org.id}`;
  for (
    const [path, body] of [
      ['verification/reject', { review_id: rejected }],
      ['verification/approve', { review_id: hidden }],
      ['verification/approve', { review_id: approved }],
    ] as const
  ) {
    expect((await api('POST', `${orgPath}/${path}`, { key, body })).status).toBe(200);
  }
  const hide = await api('PATCH', `${orgPath}/reviews/${hidden}/moderate`, {
    key,
    body: { action: 'hide', reason: 'Names a member of staff' },
  });
  expect(hide.status).toBe(200);
}, 90_000);

describe('the inbox', () => {
  it('marks imported reviews with their platform and reviews with photos with their count', {
    timeout: 90_000,
  }, async () => {
    for (const width of [1280, 390]) {
      await onDashboardPage(browser(), owner.session, `/app/o/${owner.tenant.org.id}/reviews`, async (page) => {
        const row = (title: string) => page.locator('.review-row').filter({ hasText: title });
        await row('Plain words').waitFor();
        expect(await row('Brought over').locator('.badge').allTextContents()).toContain('Imported from Judge.me');
        expect(await row('See for yourself').locator('.badge').allTextContents()).toContain('2 photos');
        const plainBadges = await row('Plain words').locator('.badge').allTextContents();
        expect(plainBadges.some((b) => /Imported|photo|video/.test(b))).toBe(false);
        // Read as they show: the badges are text in the row, not pictures.
        expect(await row('See for yourself').getByText('2 photos', { exact: true }).isVisible()).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        // Each state in its own tone: none of them grey as a neutral state is.
        const tones = (title: string) =>
          row(title).locator('.badge').evaluateAll((els) =>
            els.map((
              e,
            ) => [e.textContent, e.className.replace('badge badge-', ''), getComputedStyle(e).backgroundColor])
          );
        expect(await tones('Turned away')).toEqual([['Rejected', 'bad', 'rgb(255, 235, 233)']]);
        expect(await tones('Still waiting')).toEqual([['Awaiting verification', 'warn', 'rgb(255, 241, 197)']]);
        expect(await tones('Taken down')).toEqual([
          ['Verified', 'good', 'rgb(218, 251, 225)'],
          ['Hidden', 'bad', 'rgb(255, 235, 233)'],
        ]);
        expect(await tones('Let in')).toEqual([['Verified', 'good', 'rgb(218, 251, 225)']]);
        expect((await tones('Plain words'))[0].slice(0, 2)).toEqual(['Not verified', 'plain']);
        await shot(page, `inbox-badges-${width}`);
      }, { width, height: 900 });
    }
  });
});
