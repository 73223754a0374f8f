// Review-request settings of an organization: the daily quota and reminders.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { fieldsGiven } from '../../http/patch.ts';
import { orgSettingsRoutes } from '../org-settings.ts';
import { Settings, SettingsPatch } from './shared.ts';

export const reviewRequestSettings = orgSettingsRoutes({
  path: '/organizations/{orgId}/review-requests/settings',
  operation: 'reviewRequestSettings',
  tag: 'Review requests',
  schema: Settings,
  patchSchema: SettingsPatch,
  get: {
    summary: 'Get review request settings',
    description: "The daily quota (and today's use, UTC) and the reminder settings. Reminders are off by default.",
  },
  update: {
    summary: 'Change review request settings',
    description:
      '`daily_quota` (1–100,000 requests per UTC day), `reminders_enabled`, `reminder_delay_days` (1–60: a reminder goes out this many days after the request, and after the previous reminder, while no review came), `reminder_max` (1 or 2). Fields left out stay as they are.',
    answer: 'The settings after the change',
  },
  table: 'plaudit.review_request_settings',
  read: loadSettings,
  columns: (patch) => fieldsGiven(patch, ['daily_quota', 'reminders_enabled', 'reminder_delay_days', 'reminder_max']),
  touchUpdatedAt: true,
});

export async function loadSettings(db: Tx): Promise<z.infer<typeof Settings>> {
  const [row] = await db<{
    daily_quota: number;
    reminders_enabled: boolean;
    reminder_delay_days: number;
    reminder_max: number;
    used_today: number;
  }[]>`
    select coalesce(s.daily_quota, 1000) as daily_quota, coalesce(s.reminders_enabled, false) as reminders_enabled,
           coalesce(s.reminder_delay_days, 3) as reminder_delay_days, coalesce(s.reminder_max, 1) as reminder_max,
           coalesce((select u.requests from plaudit.review_request_usage u
                     where u.org_id = (select plaudit.current_org_id()) and u.day = (now() at time zone 'UTC')::date), 0)::integer as used_today
    from (select 1) one left join plaudit.review_request_settings s on true`;
  return { ...row, remaining_today: Math.max(row.daily_quota - row.used_today, 0) };
}
