// The summaries' lane of the worker, its clock held by the test (no sleeps): a summary is made once
// a subject has 5 published reviews, made again only once they have grown by 10 % or more, looked
// for at most once a minute; and with SUMMARY_LLM_URL set, the phrased sentences whose citations do
// not check out are dropped (a local server answers as an OpenAI-compatible chat endpoint).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, ownApiServer, postReviews } from '../../helpers/reviews.ts';
import { asSpecs, datasetReviews } from '../../helpers/summaries.ts';
import { type HeldClockWorker, heldClockWorker } from '../../helpers/summary-worker.ts';

const server = ownApiServer();
const data = datasetReviews();

async function summaryRow(t: Tenant) {
  const [row] = await db<{ generated_at: Date; review_count: number; body: any }[]>`
    select generated_at, review_count, body from plaudit.review_summaries where org_id = ${t.org.id} and product_id is null`;
  return row ?? null;
}
const made = async (t: Tenant) =>
  Number(
    (await db`select count(*) as n from plaudit.moderation_trail where org_id = ${t.org.id} and action = 'summarize'`)[
      0
    ]
      .n,
  );

describe('made again once the published reviews grew by 10 %', () => {
  let t: Tenant;
  let formId: string;
  let worker: HeldClockWorker;
  let next = 0;
  const pool = data.filter((r) => r.clothing_id !== '895');
  const post = (n: number) => postReviews(formId, `grow-${t.org.id}-${next}`, asSpecs(pool.slice(next, next += n)));

  beforeAll(async () => {
    t = await createTenant();
    formId = (await createForm(server.call, t)).id;
    worker = heldClockWorker([t.org.id]);
  });
  afterAll(() => worker.stop());

  it('makes none below 5 published reviews, and one at 5', async () => {
    await post(4);
    await worker.drain();
    expect(await summaryRow(t)).toBeNull();
    await post(16);
    await worker.drain(); // the minute has not passed: nothing looked at
    expect(await summaryRow(t)).toBeNull();
    worker.advance(60_000);
    await worker.drain();
    expect((await summaryRow(t))!.review_count).toBe(20);
    expect(await made(t)).toBe(1);
  });

  it('does not make it again at less than 10 % more, and does at 10 %', async () => {
    await post(1); // 21: 5 % more
    worker.advance(60_000);
    await worker.drain();
    expect((await summaryRow(t))!.review_count).toBe(20);
    expect(await made(t)).toBe(1);
    await post(1); // 22: 10 % more, but within the minute
    worker.advance(30_000);
    await worker.drain();
    expect(await made(t)).toBe(1);
    worker.advance(30_000);
    await worker.drain();
    const row = (await summaryRow(t))!;
    expect(row.review_count).toBe(22);
    expect(row.body.review_count).toBe(22);
    expect(await made(t)).toBe(2);
  });
});

describe('phrased by an OpenAI-compatible endpoint', () => {
  let llm: Server;
  let t: Tenant;
  let ids: string[];
  const asked: any[] = [];

  beforeAll(async () => {
    // Phrases the first sentence faithfully, cites a review the summary does not have for the
    // second, and names no topic in the third; the others it leaves out.
    llm = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw);
        asked.push(body);
        const { items } = JSON.parse(body.messages[1].content);
        const sentences = [
          { index: 0, text: `Shoppers like the ${items[0].topic}.`, review_ids: [items[0].reviews[0].id] },
          {
            index: 1,
            text: `The ${items[1].topic} is talked about.`,
            review_ids: ['00000000-0000-4000-8000-000000000000'],
          },
          { index: 2, text: 'Everything is wonderful.', review_ids: [items[2].reviews[0].id] },
        ];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ sentences }) } }] }),
        );
      });
    });
    await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
    t = await createTenant();
    const form = await createForm(server.call, t);
    ids = await postReviews(form.id, `llm-${t.org.id}`, asSpecs(data.filter((r) => r.clothing_id === '895')));
  });
  afterAll(() => new Promise<void>((r) => llm.close(() => r())));

  it('keeps the phrased sentences whose citations check out, and drops the others', async () => {
    const url = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1/chat/completions`;
    const worker = heldClockWorker([t.org.id], {
      summaryLlm: { url, model: 'test-model', apiKey: 'k', timeoutMs: 5000 },
    });
    try {
      await worker.drain();
    } finally {
      await worker.stop();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0].model).toBe('test-model');
    const { items } = JSON.parse(asked[0].messages[1].content);
    expect(items.length).toBeGreaterThanOrEqual(3);
    const row = (await summaryRow(t))!;
    expect(row.body.sentences).toEqual([{
      text: `Shoppers like the ${items[0].topic}.`,
      sentiment: items[0].sentiment,
      review_ids: expect.arrayContaining([items[0].reviews[0].id]),
      count: expect.any(Number),
    }]);
    expect(row.body.sentences[0].review_ids[0]).toBe(items[0].reviews[0].id);
    for (const id of row.body.sentences[0].review_ids) expect(ids).toContain(id);
    expect(worker.logs).toContainEqual(expect.objectContaining({ msg: 'phrased summary sentences dropped' }));
  });
});
