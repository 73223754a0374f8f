// Review summaries (after release 0.2.0): the business's, made as the worker makes it, from its
// published reviews by the summarizer itself, and saved with its trail entry.
import { summarize, type SummaryInput } from '../../../functions/_shared/core/summaries/summarize.ts';
import { expectAnswer, type Org } from './context.ts';

export async function fillSummaries(org: Org) {
  if (!org.schema.has('review_summaries')) return;
  const inputs = await org.worker((tx) =>
    tx<
      SummaryInput[]
    >`select id, rating, title, content, language from plaudit.review_summary_inputs(${org.id}, null, null)`
  );
  // Below 5 reviews the worker would wait; the filler saves what it has all the same.
  const summary = summarize(inputs) ?? { language: null, sentences: [], evidence: {} };
  const ids = inputs.map((r) => r.id);
  const [saved] = await org.worker((tx) =>
    tx<{ id: string | null }[]>`
      select plaudit.save_review_summary(${org.id}, null, null, ${summary.language},
        ${tx.json(summary.sentences.map(({ text, sentiment, review_ids }) => ({ text, sentiment, review_ids })))},
        ${tx.json(summary.evidence)}, ${ids}::uuid[], ${ids.length}) as id`
  );
  expectAnswer('save_review_summary', typeof saved.id, 'string');
}
