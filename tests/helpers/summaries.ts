// The dataset of real public reviews the summaries are measured on (tests/fixtures/reviews/, its
// README gives the source and licence), as review specs to post, and the worker's run of a summary.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReviewSpec } from './reviews.ts';

export interface DatasetReview {
  row: number;
  clothing_id: string;
  department: string;
  title: string | null;
  text: string;
  rating: number;
}

/** Every review of the dataset, in its order. */
export function datasetReviews(): DatasetReview[] {
  const file = path.join(process.cwd(), 'tests', 'fixtures', 'reviews', 'womens-clothing.jsonl');
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as DatasetReview);
}

/** Dataset reviews as specs for postReviews (titles and texts cut to what a review may hold). */
export function asSpecs(reviews: DatasetReview[]): ReviewSpec[] {
  return reviews.map((r) => [r.rating, r.title?.slice(0, 200) || null, r.text.slice(0, 5000), `Reviewer ${r.row}`]);
}
