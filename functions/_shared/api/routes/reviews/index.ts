// Reviews: their shape (shape.ts), a reviewer's submission (submission.ts), the list and one
// review (list.ts), what the organization does to them (moderation.ts), the moderation trail
// (trail.ts), and the statements of reasons of their hides (statements.ts).
import { publicCors } from '../../middleware/public-access/index.ts';
import { router } from '../define.ts';
import { reviewList } from './list.ts';
import { reviewModeration } from './moderation.ts';
import { reviewStatements } from './statements.ts';
import { reviewSubmission } from './submission.ts';
import { reviewTrail } from './trail.ts';

export const reviews = router();
reviews.use('/reviews', publicCors({ methods: ['POST'] }));
reviews
  .route('/', reviewSubmission)
  .route('/', reviewList)
  .route('/', reviewModeration)
  .route('/', reviewTrail)
  .route('/', reviewStatements);
