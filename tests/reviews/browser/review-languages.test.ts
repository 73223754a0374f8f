/// <reference lib="dom" />
// Reviews in the reader's language first, the others labelled with theirs, in a real browser: the
// widget with `data-language` and the profile page with `Accept-Language`, at 1,280 and 390 px;
// axe-core finds no violation; screenshots are written for people to look at
// ($TEST_TMP_DIR/screenshots).
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
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
  const form = await createForm(t, {});
  // Oldest first: the newest is English.
  await postReviews(form.id, t.org.slug, [
    [
      5,
      'Sehr zufrieden',
      'Die Bohnen kamen schnell und waren frisch geröstet, der Kaffee schmeckt wunderbar.',
      'Jonas W.',
    ],
    [4, 'Très bon café', 'Le café est arrivé rapidement et il a un goût fruité et délicieux.', 'Claire D.'],
    [5, 'Lovely beans', 'Arrived quickly, freshly roasted, and the espresso tastes wonderful.', 'Ingrid H.'],
  ]);
  snippet = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body.snippet;
});

/** Each review's reviewer and its language label, if any, in the order shown. */
function shown(root: Document | ShadowRoot, review: string, name: string, label: string) {
  return [...root.querySelectorAll(review)].map((r) => [
    r.querySelector(name)?.textContent ?? '',
    [...r.querySelectorAll(label)].map((l) => l.textContent).find((s) => s?.startsWith('Written in')) ?? null,
  ]);
}

describe("reviews in the reader's language first", () => {
  for (const width of [1280, 390]) {
    it(`in the widget with data-language="de" at ${width} px`, async () => {
      const german = snippet.replace('data-slug=', 'data-language="de" data-slug=');
      expect(german).toContain('data-language="de"');
      const url = site.page(`/languages-${width}`, hostPage(german));
      const { page, errors, close } = await openPage(browser(), url, width, { bypassCSP: true });
      try {
        await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.r'));
        const seen = await page.evaluate(
          ([fn]) =>
            new Function(`return (${fn})`)()(
              document.querySelector('#service-widget')!.shadowRoot!,
              'li.r',
              '.meta span',
              '.meta span',
            ),
          [shown.toString()],
        );
        expect(seen).toEqual([
          ['Jonas W.', null],
          ['Ingrid H.', 'Written in English'],
          ['Claire D.', 'Written in French'],
        ]);
        const lang = await page.evaluate(() =>
          [...document.querySelector('#service-widget')!.shadowRoot!.querySelectorAll('li.r .tx')].map((p) =>
            p.getAttribute('lang')
          )
        );
        expect(lang).toEqual(['de', 'en', 'fr']);
        expect(errors).toEqual([]);
        await page.screenshot({ path: path.join(screenshotDir(), `languages-widget-${width}.png`), fullPage: true });
        expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
      } finally {
        await close();
      }
    });

    it(`on the profile page for a French reader at ${width} px`, async () => {
      const context = await browser().newContext({
        viewport: { width, height: 900 },
        bypassCSP: true,
        locale: 'fr-FR',
      });
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/p/${t.org.slug}`);
        const seen = await page.evaluate(
          ([fn]) => new Function(`return (${fn})`)()(document, 'article.review', '.meta span', '.meta span'),
          [shown.toString()],
        );
        expect(seen).toEqual([
          ['Claire D.', null],
          ['Ingrid H.', 'Written in English'],
          ['Jonas W.', 'Written in German'],
        ]);
        await page.screenshot({ path: path.join(screenshotDir(), `languages-profile-${width}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
