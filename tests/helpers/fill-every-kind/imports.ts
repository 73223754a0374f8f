// Imports of reviews from other platforms (after release 0.2.0): files read by the API's reader
// and staged with their job (plaudit.create_import), applied by the worker (plaudit.run_imports):
// one imported (a new product, a reply, a hidden review, a duplicate and a refused row), the
// same file again as a dry run, and one left waiting for the worker with its rows staged.
import { readImport } from '../../../functions/_shared/core/imports/read.ts';
import type { ImportFormat } from '../../../functions/_shared/core/imports/formats.ts';
import { expectAnswer, type Org } from './context.ts';

/** A Judge.me export: its last row repeats one, and a row with a rating of "six" is refused. */
const judgeme = (domain: string) =>
  [
    'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,reply,' +
    'reply_date,picture_urls,ip_address,location',
    `Pours well,The teapot pours without a drip.,5,2025-03-02 10:00:00 UTC,web,ok,Tom,tom@${domain},TEAPOT,teapot,` +
    '"Thanks, Tom!",2025-03-03,,,',
    ',Never arrived.,1,2025-04-11,web,spam,Una,,,,,,,,',
    `Great,Great!,six,2025-05-02,web,ok,Wes,wes@${domain},,,,,,,`,
    `Lovely,Lovely shop.,5,2025-05-01,web,ok,Vic,vic@${domain},,,,,,,`,
    `Lovely,Lovely shop.,5,2025-05-01,web,ok,Vic,vic@${domain},,,,,,,`,
  ].join('\r\n');

/** An Okendo export, with the platform's ids and its verified-buyer claims. */
const okendo = [
  'Review ID,Product ID,Product Name,Rating,Title,Body,Reviewer Name,Is Verified Buyer,Date Created,Status',
  'ok-1,MUG-S,"Mug, small",5,Sturdy,Survived the dishwasher.,Xena,true,2025-06-01T08:00:00Z,approved',
  'ok-2,,,4,,Friendly service.,Yann,false,06/15/2025,approved',
].join('\n');

/** POST …/imports: the file read and checked, its job and rows staged. Answers the job's id. */
async function createImport(org: Org, csv: string, format: ImportFormat, dryRun: boolean): Promise<string> {
  const read = readImport(new TextEncoder().encode(csv), format);
  if (!read.ok) throw new Error(`readImport: ${read.message}`);
  // Since 0.2.0 the reader counts a file's repeated rows and its refusals itself and stages each
  // review once; a database of 0.2.0 is told those counts after the job is staged.
  const counted = org.schema.has('imports', 'rejected_count');
  const [job] = await org.tenant((tx) =>
    counted
      ? tx<{ id: string }[]>`
      select id from plaudit.create_import(${read.format}, ${dryRun}, ${read.total_rows},
        ${tx.json(read.reviews as never)}, ${tx.json(read.rejected as never)}, ${org.keyActor},
        ${read.rejected_count}, ${read.duplicates})`
      : tx<{ id: string }[]>`
      select id from plaudit.create_import(${read.format}, ${dryRun}, ${read.total_rows},
        ${tx.json(read.reviews as never)}, ${tx.json(read.rejected as never)}, ${org.keyActor})`
  );
  if (!counted) await org.sql`update plaudit.imports set duplicates = ${read.duplicates} where id = ${job.id}`;
  return job.id;
}

/** The worker's import lane, until nothing waits. */
async function runImports(org: Org) {
  for (;;) {
    const [{ remaining }] = await org.worker((tx) => tx`select plaudit.run_imports(2000) as remaining`);
    if (remaining === 0) break;
  }
}

/** A Judge.me file imported, then tried again as a dry run: all of it duplicates. */
export async function fillImports(org: Org) {
  if (!org.schema.has('imports')) return;
  const imported = await createImport(org, judgeme(org.domain), 'judgeme', false);
  await createImport(org, judgeme(org.domain), 'judgeme', true);
  await runImports(org);
  const [job] = await org.sql`select status, imported, duplicates from plaudit.imports where id = ${imported}`;
  expectAnswer('run_imports', `${job.status} ${job.imported} ${job.duplicates}`, 'completed 3 1');
}

/**
 * An import the worker has not taken yet, its rows staged. The worker's run takes every
 * organization's waiting imports: this comes after every organization's imports ran.
 */
export async function stageWaitingImport(org: Org) {
  if (!org.schema.has('import_rows')) return;
  await createImport(org, okendo, 'okendo', false);
}
