// The review bombing detection's thresholds of an organization (docs/compliance.md, "Review bombing
// and duplicates"): the worker's burst lane reads them each cycle, the defaults where none were set.
// Read with any key; changed by an admin signed in to the dashboard, as holds are released.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../core/db/client.ts';
import { fieldsGiven } from '../http/patch.ts';
import { orgSettingsRoutes } from './org-settings.ts';

export const CHANGED_BY_MEMBER = 'Hold thresholds are changed by an admin of the team, signed in to the dashboard';

const HoldSettings = z.object({
  min_reviews: z.number().int().openapi({
    description: 'One- and two-star reviews of one subject within an hour that can make a burst (default 10).',
  }),
  min_addresses: z.number().int().openapi({
    description:
      'Distinct client addresses they must come from (default 5); the reviews must reach `min_reviews` without the busiest address too.',
  }),
  median_factor: z.number().openapi({
    description: "How many times the subject's 28-day hourly median of such reviews the hour must reach (default 5).",
  }),
  min_low_share: z.number().openapi({
    description: "The share of the hour's reviews of the subject they must make, 0 to 1 (default 0.5).",
  }),
}).openapi('HoldSettings');

const HoldSettingsPatch = z.object({
  min_reviews: z.number().int().min(2).max(100_000).optional(),
  min_addresses: z.number().int().min(2).max(100_000).optional(),
  median_factor: z.number().min(1).max(1000).optional(),
  min_low_share: z.number().min(0).max(1).optional(),
}).openapi('HoldSettingsPatch', { example: { min_reviews: 20, min_addresses: 8 } });

export const holdSettings = orgSettingsRoutes({
  path: '/organizations/{orgId}/holds/settings',
  operation: 'holds.settings',
  tag: 'Holds',
  schema: HoldSettings,
  patchSchema: HoldSettingsPatch,
  get: {
    summary: 'Get the review bombing thresholds',
    description:
      'What makes a burst of one- and two-star reviews of one subject (the business, a product or a product group) within an hour: every threshold must be met. The defaults until changed.',
  },
  update: {
    summary: 'Change the review bombing thresholds',
    description:
      '`min_reviews` and `min_addresses` (2–100,000), `median_factor` (1–1,000), `min_low_share` (0–1). Fields left out stay as they are. The next detection cycle uses them; open holds stay open. An admin signed in to the dashboard changes them: an API key gets 403.',
    answer: 'The thresholds after the change',
  },
  table: 'plaudit.review_hold_settings',
  read: loadHoldSettings,
  columns: (patch) => fieldsGiven(patch, ['min_reviews', 'min_addresses', 'median_factor', 'min_low_share']),
  touchUpdatedAt: true,
  changedByMembersOnly: CHANGED_BY_MEMBER,
});

async function loadHoldSettings(db: Tx): Promise<z.infer<typeof HoldSettings>> {
  // The organization's settings, else the defaults the burst detection applies (one home, in SQL).
  const [row] = await db<
    { min_reviews: number; min_addresses: number; median_factor: string; min_low_share: string }[]
  >`select * from plaudit.review_hold_thresholds((select plaudit.current_org_id()))`;
  return { ...row, median_factor: Number(row.median_factor), min_low_share: Number(row.min_low_share) };
}
