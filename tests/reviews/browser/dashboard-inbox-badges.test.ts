/// <reference lib="dom" />
// The inbox marks what a shop owner needs to tell reviews apart at a glance: a review imported
// from another platform says which ("Imported from Judge.me"), and a review with photos or videos
// says how many ("2 photos"); a review sent through a form carries neither. The badges are text, so
// a screen reader reads them as they show. axe-core finds no violation; screenshots at 390 and
// 1,280 px.
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { onDashboardPage, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { db } from '../../helpers/db.ts';
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
        await shot(page, `inbox-badges-${width}`);
      }, { width, height: 900 });
    }
  });
});
