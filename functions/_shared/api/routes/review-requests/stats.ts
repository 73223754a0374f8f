// Review-request statistics: totals, rates and the daily series of a date range.
import { ApiError } from '../../http/errors.ts';
import { json, OrgParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { REVIEW_REQUEST_STATUSES, STAGES, Stats, StatsQuery } from './shared.ts';

export const reviewRequestStats = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/review-requests/stats',
      operationId: 'reviewRequests.stats',
      tags: ['Review requests'],
      summary: 'Get aggregate request statistics',
      description:
        'For the requests created from `startDate` to `endDate` (UTC days, inclusive; default the last 30 days, at most 366): counts per status (every status, 0 included), the delivery, open, click and completion rates as fractions 0–1 of the requests sent, and a daily series.',
      request: { params: OrgParams, query: StatsQuery },
      responses: { 200: json(Stats, 'The statistics') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const today = new Date().toISOString().slice(0, 10);
      const endDate = q.endDate ?? today;
      const startDate = q.startDate ??
        new Date(Date.parse(`${endDate}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
      if (Number.isNaN(Date.parse(`${startDate}T00:00:00Z`)) || Number.isNaN(Date.parse(`${endDate}T00:00:00Z`))) {
        throw new ApiError(400, 'startDate, endDate: must be valid dates');
      }
      const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1;
      if (days < 1) throw new ApiError(400, 'startDate: must not be after endDate');
      if (days > 366) throw new ApiError(400, 'startDate: the range may span at most 366 days');
      const db = c.var.db;
      const start = new Date(`${startDate}T00:00:00Z`);
      const end = new Date(Date.parse(`${endDate}T00:00:00Z`) + 86_400_000);
      const [statusRows, [totals], dailyRows] = await Promise.all([
        db<{ status: string; n: number }[]>`
          select status, count(*)::integer as n from plaudit.review_requests
          where created_at >= ${start} and created_at < ${end} group by status`,
        db<{ sent: number; delivered: number; opened: number; clicked: number; completed: number }[]>`
          select count(sent_at)::integer as sent, count(delivered_at)::integer as delivered,
                 count(opened_at)::integer as opened, count(clicked_at)::integer as clicked,
                 (count(completed_at) filter (where sent_at is not null))::integer as completed
          from plaudit.review_requests where created_at >= ${start} and created_at < ${end}`,
        db<{ date: string; stage: string; n: number }[]>`
          select to_char((k.at at time zone 'UTC')::date, 'YYYY-MM-DD') as date, k.stage, count(*)::integer as n
          from plaudit.review_requests q
          cross join lateral (values ('requested', q.created_at), ('sent', q.sent_at), ('delivered', q.delivered_at),
                                     ('opened', q.opened_at), ('clicked', q.clicked_at), ('completed', q.completed_at),
                                     ('bounced', q.bounced_at), ('complained', q.complained_at),
                                     ('unsubscribed', q.unsubscribed_at), ('failed', q.failed_at),
                                     ('canceled', q.canceled_at)) k(stage, at)
          where q.created_at >= ${start} and q.created_at < ${end}
            and k.at is not null and k.at >= ${start} and k.at < ${end}
          group by 1, 2`,
      ]);
      const by_status = Object.fromEntries(REVIEW_REQUEST_STATUSES.map((s) => [s, 0])) as Record<
        typeof REVIEW_REQUEST_STATUSES[number],
        number
      >;
      for (const r of statusRows) by_status[r.status as keyof typeof by_status] = r.n;
      const total = statusRows.reduce((n, r) => n + r.n, 0);
      const rate = (
        n: number,
      ) => (totals.sent ? Math.round((Math.min(n, totals.sent) / totals.sent) * 10_000) / 10_000 : 0);
      const daily = Array.from({ length: days }, (_, i) => {
        const date = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
        return { date, ...Object.fromEntries(STAGES.map((s) => [s, 0])) } as
          & { date: string }
          & Record<typeof STAGES[number], number>;
      });
      const byDate = new Map(daily.map((d) => [d.date, d]));
      for (const r of dailyRows) {
        const d = byDate.get(r.date);
        if (d) d[r.stage as typeof STAGES[number]] = r.n;
      }
      return c.json({
        startDate,
        endDate,
        total,
        by_status,
        sent: totals.sent,
        delivery_rate: rate(totals.delivered),
        open_rate: rate(totals.opened),
        click_rate: rate(totals.clicked),
        completion_rate: rate(totals.completed),
        daily,
      }, 200);
    },
  );
