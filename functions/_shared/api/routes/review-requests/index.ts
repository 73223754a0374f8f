// Review requests: single and bulk creation, list, details with the event timeline (requests.ts),
// statistics (stats.ts), per-organization settings (settings.ts) and the suppression list
// (suppressions.ts). The database
// decides (supabase/schemas/review_requests.sql): these handlers validate shapes and translate.
//
// Compliance: nothing here selects, filters or routes recipients by the rating they are
// expected to give (review gating), which the FTC rule on consumer reviews (2024) and Google's
// policy prohibit. Every request gets the same e-mail and the same review page.
import { router } from '../define.ts';
import { reviewRequests as requests } from './requests.ts';
import { reviewRequestSettings } from './settings.ts';
import { reviewRequestStats } from './stats.ts';
import { reviewRequestSuppressions } from './suppressions.ts';

// Statistics and settings first: their paths would otherwise be taken for a request's {id}.
export const reviewRequests = router()
  .route('/', reviewRequestStats)
  .route('/', reviewRequestSettings)
  .route('/', requests)
  .route('/', reviewRequestSuppressions);
