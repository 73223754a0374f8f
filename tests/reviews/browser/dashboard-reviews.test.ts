/// <reference lib="dom" />
// The dashboard's reviews in a real browser, as a shop owner uses them: the inbox with its
// filters (kept in the URL), a review's page, hiding a review (it leaves the public widget's
// data), replying (the reply shows on the public profile page; only a published review takes one),
// approving a pending review (not public until then), and the trail naming who did what. axe-core finds no violation; screenshots at 375 and 1,280 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { addMember } from '../../helpers/sessions.ts';

const browser = useBrowser();

let owner: SignedInOwner;
let ids: Record<'chair' | 'desk' | 'lamp' | 'pending', string>;
let manualFormId: string;
const orgPath = () => `/api/v1/organizations/${owner.tenant.org.id}`;
const appPath = (rest: string) => `/app/o/${owner.tenant.org.id}${rest}`;

async function review(id: string) {
  const res = await api('GET', `${orgPath()}/reviews/${id}`, { key: owner.tenant.keys.read });
  expect(res.status).toBe(200);
  return res.body;
}

const withPage = <T>(path: string, fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, path, fn, viewport);

/** The text of each review the embeddable widget shows on a page holding only its snippet. */
async function widgetReviews(snippet: string): Promise<string> {
  const page = await browser().newPage();
  try {
    await page.setContent(`<!doctype html><html lang="en"><body>${snippet}</body></html>`);
    return await page.locator('#service-widget').evaluate((el) =>
      new Promise<string>((resolve) => {
        const read = () => [...el.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent).join('\n');
        if (el.shadowRoot?.querySelector('li')) resolve(read());
        else el.addEventListener('plaudit:ready', () => resolve(read()));
      })
    );
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  const open = await createForm(owner.tenant, { verification_mode: 'none' });
  const manual = await createForm(owner.tenant, { verification_mode: 'manual', name: 'Checked by the shop' });
  manualFormId = manual.id;
  const tag = owner.tenant.org.slug;
  const [chair, desk, lamp] = await postReviews(open.id, tag, [
    [5, 'Sturdy chair', 'The oak chair arrived well packed and sits beautifully.', 'Chris C.'],
    [2, 'Wobbly desk', 'One leg of the desk is shorter than the others.', 'Dana D.'],
    [4, 'Warm lamp', 'Lovely warm light, a little pricey.', 'Lee L.'],
  ]);
  const [pending] = await postReviews(manual.id, `${tag}-m`, [
    [3, 'Checked by hand', 'A review the shop approves itself.', 'Pat P.'],
  ]);
  ids = { chair, desk, lamp, pending };
});

describe('the inbox', () => {
  it('lists the reviews newest first, and filters by status, rating and words through the URL', async () => {
    await withPage(appPath('/reviews'), async (page) => {
      const rows = page.locator('.review-row');
      await expect.poll(() => rows.count()).toBe(4);
      // Newest first: the pending review was written last.
      expect(await rows.first().getByRole('link').textContent()).toBe('Checked by hand');
      await expect.poll(() => page.title()).toBe(`Reviews · ${owner.tenant.org.name} · Plaudit`);

      await page.getByLabel('Verification').selectOption('pending');
      await page.waitForURL(/verification_status=pending/);
      await expect.poll(() => rows.first().getByRole('link').textContent()).toBe('Checked by hand');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('Awaiting verification');

      await page.getByLabel('Verification').selectOption('');
      await page.getByLabel('Rating').selectOption('2');
      await expect.poll(() => rows.first().getByRole('link').textContent()).toBe('Wobbly desk');
      expect(await rows.count()).toBe(1);

      await page.getByLabel('Rating').selectOption('');
      await page.getByLabel('Search').fill('warm light');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/q=warm\+light/);
      await expect.poll(() => rows.first().getByRole('link').textContent()).toBe('Warm lamp');
      expect(await rows.count()).toBe(1);

      // The filtered view survives a reload: it lives in the URL.
      await page.reload();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await page.getByLabel('Search').inputValue()).toBe('warm light');

      await page.getByLabel('Search').fill('no such words anywhere');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('No review matches these filters.').waitFor();

      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => rows.count()).toBe(4);
      expect(await page.getByLabel('Search').inputValue()).toBe('');
      await page.getByLabel('Form').selectOption({ label: 'Checked by the shop' });
      await page.waitForURL(new RegExp(`form_id=${manualFormId}`));
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getByRole('link').textContent()).toBe('Checked by hand');
      // Written from tomorrow on: nothing yet.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => rows.count()).toBe(4);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('Written from').fill(tomorrow);
      await page.waitForURL(new RegExp(`startDate=${tomorrow}`));
      await page.getByText('No review matches these filters.').waitFor();
    });
  });

  it('of a new organization says how to collect the first reviews, and leads there', async () => {
    const fresh = await signedInOwner('Nina New');
    await onDashboardPage(browser(), fresh.session, `/app/o/${fresh.tenant.org.id}/reviews`, async (page) => {
      await page.getByText('No reviews yet.').waitFor();
      await page.getByRole('link', { name: 'share a review form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Review forms' }).waitFor();
      await page.goBack();
      await page.getByRole('link', { name: 'Send review requests' }).click();
      await page.getByRole('heading', { level: 1, name: 'Review requests' }).waitFor();
    });
  });

  it('on a deep link, asks for its first page beside the session, not after it, and only once', async () => {
    await withPage(appPath('/reviews?rating=5'), async (page) => {
      await page.locator('.review-row').first().waitFor();
      const events: string[] = [];
      const api = (url: string) => new URL(url).pathname.replace(`/api/v1/organizations/${owner.tenant.org.id}`, '');
      page.on('request', (r) => r.url().includes('/api/v1/') && events.push(`asked ${api(r.url())}`));
      page.on('requestfinished', (r) => r.url().includes('/api/v1/') && events.push(`answered ${api(r.url())}`));
      await page.reload();
      await expect.poll(() => page.locator('.review-row').first().getByRole('link').textContent()).toBe('Sturdy chair');
      expect(events.filter((e) => e === 'asked /reviews')).toHaveLength(1);
      expect(events.indexOf('asked /reviews')).toBeLessThan(events.indexOf('answered /api/v1/auth/session'));
    });
  });

  it('looks right at phone and desktop widths, with no accessibility violation', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(appPath('/reviews'), async (page) => {
        await page.locator('.review-row').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `reviews-${viewport.width}`);
      }, viewport);
    }
  });
});

describe("a review's page", () => {
  it('hides a review with a reason: it leaves the public data and the trail names the owner', async () => {
    await withPage(appPath('/reviews'), async (page) => {
      await page.getByRole('link', { name: 'Wobbly desk' }).click();
      await page.getByRole('heading', { level: 1, name: 'Wobbly desk' }).waitFor();
      expect(page.url()).toContain(appPath(`/reviews/${ids.desk}`));
      const before = await api('GET', `/api/v1/public/embed/${owner.tenant.org.slug}`);
      expect(before.body.reviews.map((r: { id: string }) => r.id)).toContain(ids.desk);

      // A reason is required: the browser keeps the form until one is given.
      await page.getByRole('button', { name: 'Hide review' }).click();
      expect(await page.getByLabel('Why hide it').evaluate((el: HTMLInputElement) => el.validity.valueMissing))
        .toBe(true);
      await page.getByLabel('Why hide it').fill('Shows the customer’s phone number');
      await page.getByRole('button', { name: 'Hide review' }).click();
      await page.getByText('The review is hidden from the public.').waitFor();

      expect((await review(ids.desk)).is_hidden).toBe(true);
      const after = await api('GET', `/api/v1/public/embed/${owner.tenant.org.slug}`);
      expect(after.body.reviews.map((r: { id: string }) => r.id)).not.toContain(ids.desk);
      // The real widget, as a shop's page embeds it, shows the others and not this one.
      const shown = await widgetReviews(after.body.snippet);
      expect(shown).toContain('Sturdy chair');
      expect(shown).not.toContain('Wobbly desk');
      const trail = page.locator('.trail li').first();
      await expect.poll(() => trail.textContent()).toContain('Hidden');
      expect(await trail.textContent()).toContain('Olga Owner');
      expect(await trail.textContent()).toContain('Shows the customer’s phone number');

      await page.getByLabel('Why show it again').fill('Number removed by the customer');
      await page.getByRole('button', { name: 'Show review' }).click();
      await page.getByText('The review is public again.').waitFor();
      expect((await review(ids.desk)).is_hidden).toBe(false);
    });
  });

  it('publishes a reply that the public profile page shows, edits it and withdraws it', async () => {
    await withPage(appPath(`/reviews/${ids.chair}`), async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Sturdy chair' }).waitFor();
      await page.getByLabel('Reply', { exact: true }).fill('Thank you, Chris! Enjoy the chair.');
      await page.getByRole('button', { name: 'Publish reply' }).click();
      await page.getByText('Your reply is published under the review.').waitFor();
      expect((await review(ids.chair)).reply.content).toBe('Thank you, Chris! Enjoy the chair.');

      const profile = await fetch(`${inject('apiUrl')}/p/${owner.tenant.org.slug}`);
      expect(await profile.text()).toContain('Thank you, Chris! Enjoy the chair.');

      await page.getByRole('button', { name: 'Edit reply' }).click();
      await page.getByLabel('Reply', { exact: true }).fill('Thank you, Chris! Enjoy the oak chair.');
      await page.getByRole('button', { name: 'Save reply' }).click();
      await expect.poll(() => page.locator('.reply .review-text').textContent()).toBe(
        'Thank you, Chris! Enjoy the oak chair.',
      );
      expect((await review(ids.chair)).reply.content).toBe('Thank you, Chris! Enjoy the oak chair.');

      await page.getByRole('button', { name: 'Withdraw reply' }).click();
      await page.getByText('Your reply is withdrawn.').waitFor();
      expect((await review(ids.chair)).reply).toBeNull();
      const actions = await page.locator('.trail li strong').allTextContents();
      expect(actions.slice(0, 3)).toEqual(['Reply withdrawn', 'Reply edited', 'Replied']);
    });
  });

  it('approves a pending review, which is then verified by the owner', async () => {
    await withPage(appPath(`/reviews/${ids.pending}`), async (page) => {
      await page.getByRole('heading', { name: 'Awaiting verification' }).waitFor();
      // Not public while it waits: never said to be published.
      const badges = () => page.locator('.review-card .review-row-head .badge').allTextContents();
      expect(await badges()).toEqual(['Awaiting verification', 'Not public until verified']);
      expect(await page.getByRole('heading', { name: 'Not public yet' }).count()).toBe(1);
      // No public reply to a review the public does not see: it comes once the review is published.
      expect(await page.getByRole('heading', { name: 'Reply in public' }).count()).toBe(0);
      await page.getByText('You can reply in public once the review is published.').waitFor();
      await page.getByLabel('Reason (optional)').fill('Order found in the till');
      await page.getByRole('button', { name: 'Approve and publish' }).click();
      await page.getByText('The review is approved and verified.').waitFor();
      expect(await badges()).toEqual(['Verified', 'Published']);
      expect((await review(ids.pending)).verification_status).toBe('verified');
      await page.getByText('How it was verified').waitFor();
      await expect.poll(() => page.locator('.facts').textContent()).toContain('Olga Owner');
      expect(await page.getByRole('heading', { name: 'Awaiting verification' }).count()).toBe(0);
      await page.getByRole('heading', { name: 'Reply in public' }).waitFor();
      expect(await page.getByText('You can reply in public once the review is published.').count()).toBe(0);
    });
  });

  it(
    'offers no public reply on a pending or a rejected review, nor hiding a rejected one, at phone and desktop widths',
    {
      timeout: 120_000,
    },
    async () => {
      const [waiting, refused] = await postReviews(manualFormId, `${owner.tenant.org.slug}-r`, [
        [4, 'Still waiting', 'Sent, and not approved yet.', 'Wes W.'],
        [1, 'Turned away', 'Not one of our customers.', 'Rex R.'],
      ]);
      const rejected = await api('POST', `${orgPath()}/verification/reject`, {
        key: owner.tenant.keys.write,
        body: { review_id: refused, reason: 'No such order' },
      });
      expect(rejected.status).toBe(200);
      for (const viewport of [PHONE, DESKTOP]) {
        for (
          const [id, title, note] of [
            [waiting, 'Still waiting', 'You can reply in public once the review is published.'],
            [refused, 'Turned away', 'A rejected review is never public, so it takes no public reply.'],
          ]
        ) {
          await withPage(appPath(`/reviews/${id}`), async (page) => {
            await page.getByRole('heading', { level: 1, name: title }).waitFor();
            await page.getByText(note).waitFor();
            expect(await page.getByRole('heading', { name: 'Reply in public' }).count()).toBe(0);
            expect(await page.getByRole('button', { name: 'Publish reply' }).count()).toBe(0);
            // Nor a hide form for a rejected review, which is never public; a pending one may be hidden ahead.
            expect(await page.getByRole('button', { name: 'Hide review' }).count()).toBe(id === refused ? 0 : 1);
            expect(await axeViolations(page)).toEqual([]);
            await shot(page, `review-${title === 'Turned away' ? 'rejected' : 'pending'}-${viewport.width}`);
          }, viewport);
        }
      }
    },
  );

  it('says how a review was verified: an order number that matched a loaded order', async () => {
    const t = owner.tenant;
    const form = await createForm(t, { verification_mode: 'purchase_proof' });
    const loaded = await api('POST', `${orgPath()}/orders`, {
      key: t.keys.write,
      body: { orders: [{ order_id: 'ORD-7', email: 'buyer@example.com' }] },
    });
    expect(loaded.status).toBe(200);
    // Submitted as the public route submits (its own rate-limit bucket: the shared server's
    // per-address limit is for the submission tests).
    const review = {
      form_id: form.id,
      rating: 5,
      title: 'Matched order',
      content: 'Bought the oak shelf.',
      reviewer_name: 'Bea B.',
      reviewer_email: 'buyer@example.com',
      order_id: 'ORD-7',
    };
    const [submitted] = await db`
      select id, verification_status, verification_method from plaudit.submit_review(
        jsonb_populate_record(null::plaudit.review_submission, ${db.json(review)}),
        ${`fixture:${t.org.slug}:order`}, 1000, 'http://127.0.0.1')`;
    expect(submitted).toMatchObject({ verification_status: 'verified', verification_method: 'purchase_proof' });
    await withPage(appPath(`/reviews/${submitted.id}`), async (page) => {
      await page.getByText('How it was verified').waitFor();
      expect(await page.locator('.facts').textContent()).toContain('The order number matched an order you loaded');
    });
  });

  it('answers an unknown review with the API message and a way back', async () => {
    await withPage(appPath('/reviews/00000000-0000-4000-8000-000000000000'), async (page) => {
      await page.getByRole('alert').waitFor();
      await page.getByRole('link', { name: 'Back to the reviews' }).waitFor();
    });
  });

  it('looks right at phone and desktop widths, with no accessibility violation', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(appPath(`/reviews/${ids.lamp}`), async (page) => {
        await page.getByRole('heading', { level: 1, name: 'Warm lamp' }).waitFor();
        await page.locator('.trail, .card').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `review-${viewport.width}`);
      }, viewport);
    }
  });
});

describe('a person in several organizations', () => {
  it('switches between them: the URL, the name and the reviews follow, and signing out ends the session', async () => {
    const other = await createTenant();
    await addMember(other, owner.email, 'member', 'Olga Owner');
    const form = await createForm(other, { verification_mode: 'none' });
    await postReviews(form.id, other.org.slug, [[4, 'Other shop review', 'Only the other shop has this.', 'Sam S.']]);
    // The session lists organizations as they are on each request: no new sign-in needed.
    await withPage(appPath('/reviews'), async (page) => {
      const rows = page.locator('.review-row');
      await rows.first().waitFor();
      const switcher = page.getByLabel('Organization');
      expect(await switcher.locator('option').allTextContents()).toEqual(
        expect.arrayContaining([owner.tenant.org.name, other.org.name]),
      );
      await switcher.selectOption(other.org.id);
      await page.waitForURL(`**/app/o/${other.org.id}/reviews`);
      await expect.poll(() => rows.first().getByRole('link').textContent()).toBe('Other shop review');
      expect(await rows.count()).toBe(1);
      // A member there: the sections for admins are not offered.
      expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
      await expect.poll(() => page.title()).toBe(`Reviews · ${other.org.name} · Plaudit`);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to your reviews' }).waitFor();
      const ended = await api('GET', '/api/v1/auth/session', { headers: { cookie: owner.session.cookie } });
      expect(ended.status).toBe(401);
    });
  });
});
