/// <reference lib="dom" />
// The dashboard's imports in a real browser, as a shop owner moves in from Judge.me: the file
// chosen, its platform found from the header, its first reviews shown as they will look and its
// refused rows named before anything is sent; a trial run, then the import, its result shown and
// the reviews there through the API. axe-core finds no violation; screenshots at 1,280 and 375 px.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from '../../helpers/browser.ts';
import { DESKTOP, onDashboardPage, PHONE, shot, type SignedInOwner, signedInOwner } from '../../helpers/dashboard.ts';
import { api } from '../../helpers/http.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const browser = useBrowser();
let owner: SignedInOwner;
let worker: TestWorker;
let file: string;

const JUDGEME = 'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,' +
  'reply,reply_date,picture_urls,ip_address,location\n' +
  'Great mug,"Keeps my tea warm, ""really""",5,2024-03-01 10:20:30 UTC,web,ok,Ann,ann@example.com,MUG-1,Blue mug,' +
  'Thank you!,2024-03-02,,,\n' +
  'Meh,Chipped on arrival,2,2024-04-01,web,ok,Bo,,MUG-1,Blue mug,,,,,\n' +
  'Odd,Nine stars,9,2024-05-01,web,ok,Cy,,,,,,,,\n';

const withPage = <T>(fn: (page: Page) => Promise<T>, viewport = DESKTOP) =>
  onDashboardPage(browser(), owner.session, `/app/o/${owner.tenant.org.id}/imports`, async (page) => {
    page.setDefaultTimeout(8000);
    await page.getByRole('heading', { level: 1, name: 'Import reviews' }).waitFor();
    return await fn(page);
  }, viewport);

beforeAll(async () => {
  owner = await signedInOwner('Olga Owner');
  worker = await startWorker([owner.tenant.org.id]);
  file = path.join(mkdtempSync(path.join(tmpdir(), 'plaudit-import-')), 'judgeme-export.csv');
  writeFileSync(file, JUDGEME);
});
afterAll(async () => {
  await worker?.stop();
});

describe('importing reviews', () => {
  it('previews a Judge.me file, runs a trial, imports it and shows the result', async () => {
    await withPage(async (page) => {
      await page.locator('#csv-file').setInputFiles(file);
      await page.getByText("Found from the file's header: Judge.me.").waitFor();
      await page.getByText('3 rows: 2 can be imported, 1 cannot.').waitFor();
      await page.getByText('Keeps my tea warm, "really"').waitFor();
      await page.getByText('Row 4: rating: must be a whole number from 1 to 5, not "9"').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'imports-preview-1280');

      await page.getByLabel('Trial run: count what would be imported, change nothing').check();
      await page.getByRole('button', { name: 'Start the trial run' }).click();
      await page.getByText('Trial run done: 2 reviews would be imported, 0 are here already. Nothing was changed.')
        .waitFor({ timeout: 30_000 });
      const before = await api('GET', `/api/v1/organizations/${owner.tenant.org.id}/reviews`, {
        key: owner.tenant.keys.read,
      });
      expect(before.body.data).toEqual([]);

      // The file stays chosen after the trial run: the same file is imported without choosing it again.
      await page.getByRole('button', { name: 'Import 2 reviews' }).click();
      await page.getByText('Imported 2 reviews from Judge.me (0 were here already).').waitFor({ timeout: 30_000 });
      // Each import's refused rows, with their reasons, are a click away in the list.
      await page.getByText('See the refused row').first().click();
      await page.locator('.import-list').getByText('Row 4: rating: must be a whole number from 1 to 5, not "9"').first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'imports-done-1280');
    });
    const after = await api('GET', `/api/v1/organizations/${owner.tenant.org.id}/reviews`, {
      key: owner.tenant.keys.read,
    });
    expect(after.body.data.map((r: any) => [r.content, r.source_platform, r.verification_status]).sort()).toEqual([
      ['Chipped on arrival', 'judgeme', 'unverified'],
      ['Keeps my tea warm, "really"', 'judgeme', 'unverified'],
    ]);
  });

  it('offers the date order when a date reads two ways, and counts a repeated row as a repeat', async () => {
    const yotpo = path.join(path.dirname(file), 'yotpo-export.csv');
    writeFileSync(
      yotpo,
      'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n' +
        'A,Seventh of April,4,07/04/2024,P1,Pot,Al,\nB,Thirteenth of April,5,13/04/2024,P1,Pot,Bo,\n' +
        'B,Thirteenth of April,5,13/04/2024,P1,Pot,Bo,\n',
    );
    await withPage(async (page) => {
      await page.locator('#csv-file').setInputFiles(yotpo);
      await page.getByText('3 rows: 1 can be imported, 1 repeat a row above, 1 cannot.').waitFor();
      await page.getByText(/^1 row has a date whose day and month could be either way round/).waitFor();
      await page.getByLabel('Date order of the file').selectOption('dmy');
      await page.getByText('3 rows: 2 can be imported, 1 repeat a row above.').waitFor();
      await page.getByText('Thirteenth of April').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'imports-date-order-1280');
    });
  });

  it('names a file it cannot read, and reads well on a phone', async () => {
    const bad = path.join(path.dirname(file), 'not-reviews.csv');
    writeFileSync(bad, 'name,stars\nA,5\n');
    await withPage(async (page) => {
      await page.locator('#csv-file').setInputFiles(bad);
      await page.getByText(/^format: the header row is none of the formats read/).waitFor();
      expect(await page.getByRole('button', { name: /^Import / }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'imports-375');
    }, PHONE);
  });
});
