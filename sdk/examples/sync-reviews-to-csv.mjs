// Copies every review of your organization into a CSV file, walking all pages.
//
//   PLAUDIT_API_KEY=rk_… node sync-reviews-to-csv.mjs reviews.csv
//
// Optional: PLAUDIT_URL (default http://127.0.0.1:54321), PLAUDIT_ORGANIZATION_ID (default: the
// key's own), PLAUDIT_MIN_RATING. Reviews created while it runs are left for the next run:
// `endDate` pins the list to the moment it started, so pages do not shift under it.
import fs from 'node:fs';
import { once } from 'node:events';
import { Plaudit } from '@plaudit/sdk';

const [, , file = 'reviews.csv'] = process.argv;
const plaudit = new Plaudit({
  apiKey: process.env.PLAUDIT_API_KEY,
  baseUrl: process.env.PLAUDIT_URL,
  organizationId: process.env.PLAUDIT_ORGANIZATION_ID,
});

const COLUMNS = ['id', 'created_at', 'rating', 'title', 'content', 'reviewer_name', 'verification_status', 'is_hidden'];

/** One CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value) {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const out = fs.createWriteStream(file);
const write = async (line) => {
  if (!out.write(`${line}\r\n`)) await once(out, 'drain');
};

await write(COLUMNS.join(','));
let count = 0;
const query = { limit: 100, endDate: new Date().toISOString() };
if (process.env.PLAUDIT_MIN_RATING) query.min_rating = Number(process.env.PLAUDIT_MIN_RATING);
let limit = null; // the rate limit as the last page's answer told it
for await (const page of plaudit.reviews.list(query).pages()) {
  for (const review of page.data) {
    await write(COLUMNS.map((c) => cell(review[c])).join(','));
    count += 1;
  }
  limit = page.lastResponse?.rateLimit;
}
out.end();
await once(out, 'finish');
console.log(`wrote ${count} reviews to ${file}${limit ? ` (${limit.remaining}/${limit.limit} requests left)` : ''}`);
