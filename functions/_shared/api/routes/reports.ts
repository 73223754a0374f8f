// Visitors' reports of the organization's published reviews: listed by status and resolved with
// a resolution. A report never hid anything: hiding a review is moderation's (reviews/moderation.ts).
import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '../../core/db/shopper-signals.ts';
import { orgRoute, router } from './define.ts';

const ReportStatus = z.enum(['open', 'resolved']);

export const Report = z.object({
  id: z.string().uuid(),
  review_id: z.string().uuid(),
  review: z.object({
    id: z.string().uuid(),
    rating: z.number().int(),
    title: z.string().nullable(),
    content: z.string(),
    reviewer_name: z.string(),
    is_hidden: z.boolean(),
  }).openapi({ description: 'The review reported, as it is now: the fields a moderator reads it by.' }),
  reason: z.enum(REPORT_REASONS),
  details: z.string().nullable().openapi({ description: "The visitor's words, or null." }),
  status: ReportStatus,
  resolution: z.string().nullable().openapi({ description: 'What was done about it, once resolved.' }),
  resolved_at: Timestamp.nullable(),
  resolved_by: z.string().nullable().openapi({
    description: 'Who resolved it: `api_key:<key id>` or `member:<member id>`.',
  }),
  created_at: Timestamp,
}).openapi('Report');
type ReportBody = z.infer<typeof Report>;

const ReportListQuery = PaginationQuery.extend({
  status: ReportStatus.optional().openapi({ description: '`open` or `resolved`; both when left out.' }),
});

const ReportResolution = z.object({
  status: z.literal('resolved'),
  resolution: z.string().trim().min(1).max(REPORT_DETAILS_MAX).openapi({
    description:
      `What was done about the report (kept, hidden through moderation, …), up to ${REPORT_DETAILS_MAX} characters.`,
  }),
}).openapi('ReportResolution', {
  example: { status: 'resolved', resolution: 'Checked the order: a real customer. Kept.' },
});

export const reports = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/reports',
      operationId: 'reports.list',
      tags: ['Reports'],
      summary: "List visitors' reports of reviews",
      description:
        "Newest first, each with the review it is about. A report never hides a review by itself: hide one through moderation (`PATCH …/reviews/{id}/moderate`). The reporter's address is never stored.",
      request: { params: OrgParams, query: ReportListQuery },
      responses: { 200: json(Paginated(Report), 'A page of reports') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const where = q.status ? db`x.status = ${q.status}` : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<{ report: ReportBody }[]>`
          select plaudit.review_report_json(x.id) as report from plaudit.review_reports x where ${where}
           order by x.created_at desc, x.id desc limit ${q.limit} offset ${offset(q)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.review_reports x where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => r.report), total, q), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/reports/{id}',
      operationId: 'reports.resolve',
      tags: ['Reports'],
      summary: 'Resolve a report',
      description:
        'Records the resolution, when and by whom. Resolving a resolved report replaces its resolution. The review itself does not change.',
      request: { params: OrgItemParams, body: jsonBody(ReportResolution) },
      responses: {
        200: json(Report, 'The report, resolved'),
        404: errorResponseSpec('No report with this id in this organization'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { resolution } = c.req.valid('json');
      const db = c.var.db;
      const [resolved] = await db<{ id: string | null }[]>`
        select plaudit.resolve_review_report(${id}, ${resolution}, ${c.var.caller!.actor}) as id`;
      if (!resolved.id) throw new ApiError(404, 'Report not found');
      // A statement of its own: a read in the resolving statement would not see the change.
      const [row] = await db<{ report: ReportBody }[]>`select plaudit.review_report_json(${id}) as report`;
      return c.json(row.report, 200);
    },
  );
