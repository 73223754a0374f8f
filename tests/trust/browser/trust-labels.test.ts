/// <reference lib="dom" />
// What a reader is told about a review's origin, in a real browser: a review written for an
// incentive and an imported one carry their labels on the profile page and in the widget (whose
// footer links the transparency page); axe-core finds no violation; screenshots are written for
// people to look at ($TEST_TMP_DIR/screenshots).
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();
const base = () => inject('apiUrl');

let t: Tenant;
let snippet: string;

beforeAll(async () => {
  t = await createTenant();
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { display_name: 'Fjord Coffee Roasters' },
  });
  const plain = await createForm(t, {});
  const offered = await createForm(t, { incentive: { type: 'discount', description: '10% off your next bag' } });
  await postReviews(plain.id, t.org.slug, [[5, 'Best beans in town', 'Fruity and bright.', 'Ingrid H.']]);
  await postReviews(offered.id, `${t.org.slug}-offered`, [[4, 'Great espresso', 'Lovely blend.', 'Lars P.']]);
  // An imported review, as the import writes one.
  await db`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, source, source_platform, imported_as_verified, created_at)
    values (${t.org.id}, ${plain.id}, 5, 'From our old shop', 'Still the best.', 'Amira K.', 'a@example.com',
            'unverified', 'import', 'judgeme', true, now() - interval '1 year')`;
  snippet = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.snippet;
});

/** The labels of each review on the page (or in the widget's shadow root), by reviewer. */
function labels(root: Document | ShadowRoot, review: string, name: string, label: string) {
  return [...root.querySelectorAll(review)].map((r) => [
    r.querySelector(name)?.textContent ?? '',
    [...r.querySelectorAll(label)].map((l) => l.textContent),
  ]);
}

describe('labels of incentivized and imported reviews', () => {
  for (const width of [375, 1280]) {
    it(`on the profile page at ${width} px`, async () => {
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/p/${t.org.slug}`);
        const seen = await page.evaluate(
          ([fn]) => new Function(`return (${fn})`)()(document, 'article.review', '.meta span', '.label'),
          [labels.toString()],
        );
        expect(seen).toEqual([
          ['Lars P.', ['Received an incentive for this review']],
          ['Ingrid H.', []],
          ['Amira K.', ['Imported from Judge.me']],
        ]);
        await page.screenshot({ path: path.join(screenshotDir(), `labels-profile-${width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(`in the widget at ${width} px, whose footer links the transparency page`, async () => {
      const url = site.page(`/labels-${width}`, hostPage(snippet));
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.r'));
        const seen = await page.evaluate(
          ([fn]) =>
            new Function(`return (${fn})`)()(
              document.querySelector('#service-widget')!.shadowRoot!,
              'li.r',
              '.meta span',
              '.lb',
            ),
          [labels.toString()],
        );
        expect(seen).toEqual([
          ['Lars P.', ['Received an incentive for this review']],
          ['Ingrid H.', []],
          ['Amira K.', ['Imported from Judge.me']],
        ]);
        const footer = await page.evaluate(() =>
          [...document.querySelector('#service-widget')!.shadowRoot!.querySelectorAll('.ft a')].map((a) => [
            a.textContent,
            a.getAttribute('href'),
          ])
        );
        expect(footer).toEqual([
          ['See all 3 reviews', `${base()}/p/${t.org.slug}`],
          ['How reviews are collected', `${base()}/p/${t.org.slug}/transparency`],
        ]);
        expect(errors).toEqual([]);
        await page.screenshot({ path: path.join(screenshotDir(), `labels-widget-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
