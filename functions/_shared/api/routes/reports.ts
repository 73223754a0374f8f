// Visitors' reports (notices, EU DSA Art. 16) of the organization's published reviews: listed by
// status and resolved with a decision, which hides the review or keeps it, and a resolution.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { REPORT_DECISIONS, REPORT_DETAILS_MAX, REPORT_KINDS, REPORT_REASONS } from '../../core/db/shopper-signals.ts';
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
  kind: z.enum(REPORT_KINDS).openapi({
    description: '`illegal` (a notice under EU DSA Art. 16) or `policy` (against your review policy).',
  }),
  legal_ground: z.string().nullable().openapi({ description: 'The law the reporter names for an illegal review.' }),
  status: ReportStatus,
  decision: z.enum(REPORT_DECISIONS).nullable().openapi({
    description: 'What the resolution did to the review: `hidden` or `kept`; null while open.',
  }),
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
  decision: z.enum(REPORT_DECISIONS).default('kept').openapi({
    description:
      '`hidden` hides the review (recorded in its moderation history with this report and the resolution); `kept` (the default) leaves it as it is.',
  }),
  resolution: z.string().trim().min(1).max(REPORT_DETAILS_MAX).openapi({
    description:
      `What was done about the report (kept, hidden through moderation, …), up to ${REPORT_DETAILS_MAX} characters.`,
  }),
}).openapi('ReportResolution', {
  example: { status: 'resolved', decision: 'kept', resolution: 'Checked the order: a real customer.' },
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
        "Newest first, each with the review it is about, its kind (`illegal` or `policy`) and age. A report never hides a review by itself: its resolution's `decision` does. The reporter's network address is never stored; an e-mail address they left is never shown.",
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
        'Records the decision and the resolution, when and by whom. `hidden` hides the review if it is not hidden yet (in its moderation history, naming the report; `review.moderated`). A reporter who left an e-mail address is mailed the decision. Resolving a resolved report replaces its decision and resolution (hiding again only a visible review).',
      request: { params: OrgItemParams, body: jsonBody(ReportResolution) },
      responses: {
        200: json(Report, 'The report, resolved'),
        404: errorResponseSpec('No report with this id in this organization'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { decision, resolution } = c.req.valid('json');
      const db = c.var.db;
      const [resolved] = await db<{ id: string | null }[]>`
        select plaudit.resolve_review_report(${id}, ${resolution}, ${c.var.caller!.actor}, ${decision}) as id`;
      if (!resolved.id) throw new ApiError(404, 'Report not found');
      // A statement of its own: a read in the resolving statement would not see the change.
      const [row] = await db<{ report: ReportBody }[]>`select plaudit.review_report_json(${id}) as report`;
      return c.json(row.report, 200);
    },
  );
