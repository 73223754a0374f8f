/// <reference lib="dom" />
// The embeddable widget in a real browser (Debian's chromium), on a host page of another origin
// with hostile CSS: every layout × theme renders the business and its reviews inside a shadow
// root that the host's CSS cannot reach; review text stays text; an unknown slug leaves the
// container as it was and throws nothing; a container added later mounts; the carousel moves
// with the keyboard; axe-core finds no violation; a hidden review is gone once the cache
// revalidates. Screenshots of each layout × theme at 375 and 1,280 px go to
// $TEST_TMP_DIR/screenshots.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, screenshotDir, useBrowser } from '../../helpers/browser.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { hostPage, openPage, useHostSite } from '../../helpers/host-site.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews, type ReviewSpec } from '../../helpers/reviews.ts';

const browser = useBrowser();
const site = useHostSite();
const XSS = '<img src=x onerror="window.__xss=1"></script><b>bold?</b>';

let t: Tenant;
let embed: { snippet: string; script_url: string };
let hiddenId: string;

beforeAll(async () => {
  t = await createTenant();
  const form = await createForm(t, {});
  await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
    key: t.keys.admin,
    body: { display_name: 'Fjord Coffee Roasters' },
  });
  const reviews: ReviewSpec[] = [
    [5, 'Best beans in town', 'The Ethiopian roast is fruity and bright. '.repeat(10), 'Ingrid H.'],
    [4, 'Great coffee', 'Lovely espresso blend. Shipping took a week.', 'Lars P.'],
    [5, null, 'مرحبا — ☕ for the team! Subscribed for a year now.', 'Amira K.'],
    [3, 'Mixed', XSS, 'Mallory'],
    [1, 'Hide me', 'This review will be hidden by moderation.', 'Spam Bot'],
  ];
  const ids = await postReviews(form.id, t.org.slug, reviews);
  hiddenId = ids[reviews.findIndex((r) => r[3] === 'Spam Bot')];
  // One more, approved by the business: its badge says how it was verified.
  const manual = await createForm(t, { verification_mode: 'manual' });
  const [approved] = await postReviews(manual.id, `${t.org.slug}-m`, [[
    4,
    'Approved',
    'Checked by the shop.',
    'Vera V.',
  ]]);
  expect(
    (await api('POST', `/api/v1/organizations/${t.org.id}/verification/approve`, {
      key: t.keys.write,
      body: { review_id: approved },
    })).status,
  ).toBe(200);
  // The business answers it: the reply shows under the review.
  expect(
    (await api('PUT', `/api/v1/organizations/${t.org.id}/reviews/${approved}/reply`, {
      key: t.keys.write,
      body: { content: 'Thank you, Vera! <b>See you soon.</b>' },
    })).status,
  ).toBe(200);
  embed = (await api('GET', `/api/v1/public/embed/${t.org.slug}`)).body;
});

/** A page with one widget of this layout and theme, as the snippet places it. */
function widgetPage(name: string, attrs: string) {
  const snippet = embed.snippet.replace('<div id="service-widget"', `<div id="service-widget" ${attrs}`);
  return site.page(`/${name}`, hostPage(snippet));
}

const open = (url: string, width: number, opts: { bypassCSP?: boolean } = {}) => openPage(browser(), url, width, opts);

/** What the widget shows, read from inside its shadow root. */
function shadow(page: Page, selector = '#service-widget') {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel)?.shadowRoot;
    const w = root?.querySelector('.w');
    if (!root || !w) return null;
    return {
      className: w.className,
      name: root.querySelector('.name')?.textContent,
      reviews: root.querySelectorAll('.items > li.r').length,
      text: w.textContent ?? '',
      imgs: root.querySelectorAll('img').length,
      bold: root.querySelectorAll('b').length,
      nameColor: getComputedStyle(root.querySelector('.name')!).color,
      nameFont: getComputedStyle(root.querySelector('.name')!).fontSize,
      link: root.querySelector('a.all')?.getAttribute('href'),
    };
  }, selector);
}

describe('the widget on a host page', () => {
  for (const layout of ['list', 'grid', 'carousel']) {
    for (const theme of ['light', 'dark']) {
      it(`${layout} × ${theme}: renders inside its shadow root, untouched by the host's CSS, with no violation`, async () => {
        const url = widgetPage(`${layout}-${theme}`, `data-layout="${layout}" data-theme="${theme}"`);
        for (const width of [375, 1280]) {
          const { page, errors, close } = await open(url, width, { bypassCSP: true });
          try {
            await page.waitForFunction(() =>
              !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.w')
            );
            const seen = await shadow(page);
            expect(seen).toMatchObject({
              className: `w ${layout} ${theme}`,
              name: 'Fjord Coffee Roasters',
              reviews: 6,
            });
            expect(seen!.text).toContain('6 reviews');
            expect(seen!.text).toContain('Verified by the business');
            expect(seen!.text).toContain('Reply from Fjord Coffee Roasters');
            expect(seen!.text).toContain('Thank you, Vera! <b>See you soon.</b>');
            expect(seen!.link).toBe(`${inject('apiUrl')}/p/${t.org.slug}`);
            // The host's `* { color: #f0f !important }` and font size stop at the shadow boundary.
            expect(seen!.nameColor).not.toBe('rgb(255, 0, 255)');
            expect(seen!.nameFont).toBe('17px');
            // Review text is text.
            expect(seen!.imgs).toBe(0);
            expect(seen!.bold).toBe(0);
            expect(seen!.text).toContain('<img src=x onerror="window.__xss=1"></script><b>bold?</b>');
            expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
            expect(errors).toEqual([]);
            await page.screenshot({
              path: path.join(screenshotDir(), `widget-${layout}-${theme}-${width}.png`),
              fullPage: true,
            });
            const violations = await axeViolations(page, ['#service-widget']);
            expect(violations).toEqual([]);
          } finally {
            await close();
          }
        }
      });
    }
  }

  it('reserves its space: the page around it does not move when its reviews arrive (CLS 0)', async () => {
    // A plain page (no hostile CSS): the snippet as given, with text below it that would move.
    const cls = site.page(
      '/cls',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<script>
  window.__shift = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
</script>
<h1>Our shop</h1>${embed.snippet}<p id="below">Text below the widget.</p></body></html>`,
    );
    for (const width of [375, 1280]) {
      const { page, close } = await open(cls, width, { bypassCSP: true });
      try {
        await page.waitForFunction(() =>
          !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('li.r')
        );
        // Two frames after the reviews are drawn, so that any shift they caused is reported.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
        const box = await page.locator('#service-widget').boundingBox();
        expect(box?.height).toBe(480);
        await page.screenshot({ path: path.join(screenshotDir(), `widget-reserved-${width}.png`) });
        // Scrolling inside its box, the list is reachable by keyboard.
        expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it('reads its words in German and folds long text behind "Weiterlesen"', async () => {
    const url = widgetPage('de', 'data-locale="de" data-layout="list"');
    const { page, close } = await open(url, 1280);
    try {
      await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.w'));
      const text = (await shadow(page))!.text;
      expect(text).toContain('6 Bewertungen');
      expect(text).toContain('Vom Unternehmen bestätigt');
      expect(text).toContain('Antwort von Fjord Coffee Roasters');
      expect(text).toContain('Alle 6 Bewertungen ansehen');
      const more = page.locator('#service-widget').getByRole('button', { name: 'Weiterlesen' });
      await more.click();
      await expect.poll(() => page.locator('#service-widget').getByRole('button', { name: 'Weniger anzeigen' }).count())
        .toBe(1);
    } finally {
      await close();
    }
  });

  for (const height of [320, 480]) {
    it(`the carousel's cards, ${height} px high: a whole review or a clear "Read more", never a scroll box or a line cut`, async () => {
      // A plain page, whose container keeps the height it reserves.
      const url = site.page(
        `/carousel-cards-${height}`,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Our shop</h1>${
          embed.snippet.replace(
            '<div id="service-widget"',
            `<div id="service-widget" data-layout="carousel" style="display:block;height:${height}px"`,
          )
        }<p>The shop's own text below.</p></body></html>`,
      );
      for (const width of [390, 1280]) {
        const { page, errors, close } = await open(url, width, { bypassCSP: true });
        try {
          await page.waitForFunction(() =>
            !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.r')
          );
          await page.screenshot({ path: path.join(screenshotDir(), `widget-carousel-cards-${height}-${width}.png`) });
          const cards = await page.evaluate(() => {
            const root = document.querySelector('#service-widget')!.shadowRoot!;
            const items = root.querySelector('.items')!;
            const list = items.getBoundingClientRect();
            return {
              listScrolls: items.scrollHeight > items.clientHeight,
              cards: [...items.querySelectorAll(':scope > li.r')].map((li) => {
                const card = li.getBoundingClientRect();
                const text = li.querySelector<HTMLElement>(':scope > .tx')!;
                const clamp = Number(text.style.webkitLineClamp || 0);
                const bottom = card.bottom - parseFloat(getComputedStyle(li).paddingBottom);
                return {
                  title: li.querySelector('.tx')!.textContent!.slice(0, 20),
                  // Nothing inside the card is out of its box: it neither scrolls nor cuts.
                  cut: li.scrollHeight > li.clientHeight ||
                    [...li.children].some((c) =>
                      c.tagName !== 'DIALOG' && c.getBoundingClientRect().bottom > bottom + 0.5
                    ),
                  withinList: card.top >= list.top - 0.5 && card.bottom <= list.bottom + 0.5,
                  // The text shows whole, or whole lines of it (the clamp's lines fit its box) and "Read more".
                  whole: text.scrollHeight <= text.clientHeight,
                  linesFit:
                    clamp * parseFloat(getComputedStyle(text).lineHeight) <= text.getBoundingClientRect().height + 0.01,
                  clamp,
                  readMore: [...li.querySelectorAll(':scope > .sig button')].some((b) => b.textContent === 'Read more'),
                };
              }),
            };
          });
          expect(cards.listScrolls).toBe(false);
          for (const card of cards.cards) {
            expect(card, JSON.stringify(card)).toMatchObject({ cut: false, withinList: true, linesFit: true });
            expect(card.whole || (card.clamp > 0 && card.readMore), JSON.stringify(card)).toBe(true);
          }
          // The long review is folded to whole lines; its "Read more" opens all of it in a dialog.
          const long = page.locator('#service-widget li.r', { hasText: 'Best beans in town' }).first();
          await long.scrollIntoViewIfNeeded();
          // The title leads the text, a word apart.
          expect(await long.locator(':scope > .tx').textContent()).toMatch(/^Best beans in town The Ethiopian roast/);
          const more = long.getByRole('button', { name: 'Read more' });
          await more.click();
          const dialog = page.locator('#service-widget').getByRole('dialog');
          await dialog.waitFor();
          expect(await dialog.locator('.tx').textContent()).toBe(
            'The Ethiopian roast is fruity and bright. '.repeat(10),
          );
          expect(await dialog.getByRole('button', { name: 'Read more' }).count()).toBe(0);
          await page.screenshot({ path: path.join(screenshotDir(), `widget-carousel-review-${height}-${width}.png`) });
          expect(await axeViolations(page, ['#service-widget'])).toEqual([]);
          await page.keyboard.press('Escape');
          await expect.poll(() => dialog.isVisible()).toBe(false);
          expect(
            await more.evaluate((b) =>
              b.getRootNode() instanceof ShadowRoot && (b.getRootNode() as ShadowRoot).activeElement === b
            ),
          )
            .toBe(true);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      }
    });
  }

  it('moves the carousel with the keyboard', async () => {
    const url = widgetPage('keys', 'data-layout="carousel"');
    const { page, close } = await open(url, 375);
    try {
      await page.waitForFunction(() =>
        !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.items')
      );
      const list = page.locator('#service-widget').locator('ul.items');
      await list.focus();
      const position = () =>
        page.evaluate(() =>
          (document.querySelector('#service-widget')!.shadowRoot!.querySelector('.items') as HTMLElement).scrollLeft
        );
      await page.keyboard.press('ArrowRight');
      await expect.poll(position).toBeGreaterThan(0);
      const moved = await position();
      await page.keyboard.press('ArrowRight');
      await expect.poll(position).toBeGreaterThan(moved);
      const twice = await position();
      // The buttons do the same, for pointers and for keyboards that tab to them.
      await page.locator('#service-widget').getByRole('button', { name: 'Previous reviews' }).click();
      await expect.poll(position).toBeLessThan(twice);
      await list.focus();
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(position).toBe(0);
    } finally {
      await close();
    }
  });

  it('an unknown slug, a switched-off profile or a network error leave the fallback and throw nothing; a later container mounts', async () => {
    const off = await createTenant();
    await api('PATCH', `/api/v1/organizations/${off.org.id}/public-profile`, {
      key: off.keys.admin,
      body: { enabled: false },
    });
    const spa = site.page(
      '/spa',
      hostPage(`<div class="w1" data-plaudit-widget data-slug="no-such-business"><a href="/a">Unknown reviews</a></div>
<div class="w2" data-plaudit-widget data-slug="${off.org.slug}"><a href="/b">Switched-off reviews</a></div>
<div class="w3" data-plaudit-widget data-slug="${t.org.slug}" data-api="http://127.0.0.1:1"><a href="/c">Unreachable reviews</a></div>
<script async src="${embed.script_url}"></script>
<script>
  addEventListener('plaudit:ready', (e) => { window.__ready = (window.__ready || 0) + 1; });
  setTimeout(() => {
    const later = document.createElement('div');
    later.className = 'later';
    later.setAttribute('data-plaudit-widget', '');
    later.setAttribute('data-slug', ${JSON.stringify(t.org.slug)});
    document.querySelector('main').append(later);
  }, 0);
</script>`),
    );
    const { page, errors, close } = await open(spa, 1280);
    try {
      await page.waitForFunction(() => !!document.querySelector('.later')?.shadowRoot?.querySelector('.w'));
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { __ready?: number }).__ready)).toBe(1);
      for (
        const [cls, link] of [['w1', 'Unknown reviews'], ['w2', 'Switched-off reviews'], ['w3', 'Unreachable reviews']]
      ) {
        expect(await page.getByRole('link', { name: link }).isVisible(), link).toBe(true);
        expect(
          await page.evaluate((c) => document.querySelector(`.${c}`)!.shadowRoot?.querySelector('.w') ?? null, cls),
        ).toBeNull();
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("follows the container's overrides and brand colours, and the page drives it through window.Plaudit", async () => {
    const url = widgetPage(
      'overrides',
      'data-layout="grid" data-max-reviews="2" data-min-rating="5" style="--plaudit-background: rgb(255, 248, 225)"',
    );
    const { page, close } = await open(url, 1280);
    try {
      await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.w'));
      const seen = await page.evaluate(() => {
        const root = document.querySelector('#service-widget')!.shadowRoot!;
        return {
          ratings: [...root.querySelectorAll('li.r [role=img]')].map((e) => e.getAttribute('aria-label')),
          background: getComputedStyle(root.querySelector('.w')!).backgroundColor,
        };
      });
      expect(seen.ratings).toEqual(['Rated 5 out of 5', 'Rated 5 out of 5']);
      expect(seen.background).toBe('rgb(255, 248, 225)');
      // unmount takes the widget away; refresh draws it again from fresh data.
      await page.evaluate(() => (window as any).Plaudit.unmount(document.querySelector('#service-widget')));
      expect(await page.evaluate(() => document.querySelector('#service-widget')!.shadowRoot!.querySelector('.w')))
        .toBeNull();
      await page.evaluate(() => (window as any).Plaudit.refresh(document.querySelector('#service-widget')));
      await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.w'));
    } finally {
      await close();
    }
  });

  it('works pasted into a plain HTML file opened from disk', async () => {
    const file = path.join(process.env.TEST_TMP_DIR ?? '/tmp', `snippet-${t.org.slug}.html`);
    fs.writeFileSync(
      file,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My shop</title></head><body>${embed.snippet}</body></html>`,
    );
    const { page, errors, close } = await open(`file://${file}`, 1280);
    try {
      await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('li.r'));
      expect((await shadow(page))!.name).toBe('Fjord Coffee Roasters');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a hidden review is gone once the cache revalidates', async () => {
    const url = widgetPage('moderated', 'data-layout="list"');
    expect(
      (await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${hiddenId}/moderate`, {
        key: t.keys.write,
        body: { action: 'hide', reason: 'spam' },
      })).status,
    ).toBe(200);
    // A new browser context: an empty HTTP cache, as after the answer's max-age.
    const { page, close } = await open(url, 1280);
    try {
      await page.waitForFunction(() => !!document.querySelector('#service-widget')?.shadowRoot?.querySelector('.w'));
      const seen = (await shadow(page))!;
      expect(seen.reviews).toBe(5);
      expect(seen.text).not.toContain('This review will be hidden');
    } finally {
      await close();
    }
  });
});
