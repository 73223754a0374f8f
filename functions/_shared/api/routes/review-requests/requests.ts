// Review requests: single and bulk creation, the list, and one request with its event timeline.
import { ApiError } from '../../http/errors.ts';
import { offset, paginate, Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, OrgParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import {
  BulkInput,
  BulkResult,
  createRequests,
  dateRange,
  issueMessage,
  ListQuery,
  loadRequests,
  RequestInput,
  RequestRow,
  ReviewRequest,
  ReviewRequestInput,
  selectRequests,
  toRequest,
} from './shared.ts';

export const reviewRequests = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/review-requests',
      operationId: 'reviewRequests.create',
      tags: ['Review requests'],
      summary: 'Send one review request e-mail',
      description:
        'Queues the e-mail (now, or at `send_at`) and answers the request with its timeline. An address on the suppression list is never mailed: the request is stored as `failed` with the reason in its timeline. Counts against the daily quota (429 beyond it, with `Retry-After`). A repeated `external_id` answers 409 and sends nothing.',
      request: { params: OrgParams, body: jsonBody(ReviewRequestInput) },
      responses: {
        201: json(ReviewRequest, 'The request'),
        404: errorResponseSpec('No active review form with this id in this organization'),
        409: errorResponseSpec('A request with this external_id exists already'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const [row] = await createRequests(c, [{ ...input, index: 0 }]);
      if (row.error) {
        throw new ApiError(
          row.error.startsWith('form_id') ? 404 : row.error.startsWith('external_id') ? 409 : 422,
          row.error,
        );
      }
      const [request] = await loadRequests(c.var.db, [row.id!]);
      return c.json(request, 201);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/review-requests/bulk',
      operationId: 'reviewRequests.bulk',
      tags: ['Review requests'],
      summary: 'Send bulk review requests',
      description:
        "Up to 1,000 requests (body up to 1 MiB), each validated on its own: valid rows are accepted (`data`), the others are listed in `rejected` with their index and the reason. Rows with an `external_id` already used (or repeated in the call) are rejected and never sent twice. With an `Idempotency-Key` header, a repeated call answers the first call's result and sends nothing (the same key with another body: 422). The daily quota applies to the accepted rows as a whole: a call that would exceed it accepts nothing and answers 429.",
      request: { params: OrgParams, body: jsonBody(BulkInput) },
      responses: {
        202: json(BulkResult, 'Which rows were accepted and why others were refused'),
        422: errorResponseSpec(
          'The body is not `{"requests":[…]}` with 1–1,000 items, or the Idempotency-Key was used with another body',
        ),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const db = c.var.db;

      const rejected: { index: number; message: string }[] = [];
      const valid: (RequestInput & { index: number })[] = [];
      body.requests.forEach((raw, index) => {
        const parsed = ReviewRequestInput.safeParse(raw);
        if (parsed.success) valid.push({ ...parsed.data, index });
        else rejected.push({ index, message: issueMessage(parsed.error.issues) });
      });
      const created = valid.length ? await createRequests(c, valid) : [];
      const ids: string[] = [];
      for (const row of created) {
        if (row.error) rejected.push({ index: row.idx, message: row.error });
        else ids.push(row.id!);
      }
      rejected.sort((a, b) => a.index - b.index);
      const data = await loadRequests(db, ids);
      return c.json({ accepted: data.length, data, rejected }, 202);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/review-requests',
      operationId: 'reviewRequests.list',
      tags: ['Review requests'],
      summary: 'List requests',
      description: 'Newest first. Filters combine with AND.',
      request: { params: OrgParams, query: ListQuery },
      responses: { 200: json(Paginated(ReviewRequest), 'A page of requests') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const { start, end } = dateRange(q);
      const conditions = [];
      if (q.status) conditions.push(db`status = ${q.status}`);
      if (q.email) conditions.push(db`lower(email) = lower(${q.email})`);
      if (q.form_id) conditions.push(db`form_id = ${q.form_id}`);
      if (q.external_id) conditions.push(db`external_id = ${q.external_id}`);
      if (start) conditions.push(db`created_at >= ${start}`);
      if (end) conditions.push(db`created_at < ${end}`);
      const where = conditions.length ? conditions.reduce((a, b) => db`${a} and ${b}`) : db`true`;
      // The page's requests with their timelines in one statement, beside the total.
      const [rows, [{ total }]] = await Promise.all([
        db<RequestRow[]>`
          ${selectRequests(db)}
          join (select id from plaudit.review_requests where ${where}
                order by created_at desc, id desc limit ${q.limit} offset ${offset(q)}) page on page.id = q.id
          order by q.created_at desc, q.id desc`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.review_requests where ${where}`,
      ]);
      return c.json(paginate(rows.map(toRequest), total, q), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/review-requests/{id}',
      operationId: 'reviewRequests.get',
      tags: ['Review requests'],
      summary: 'Get request details and delivery status',
      request: { params: OrgItemParams },
      responses: {
        200: json(ReviewRequest, 'The request and its timeline'),
        404: errorResponseSpec('No request with this id in this organization'),
      },
    }),
    async (c) => {
      const [request] = await loadRequests(c.var.db, [c.req.valid('param').id]);
      if (!request) throw new ApiError(404, 'Review request not found');
      return c.json(request, 200);
    },
  );
