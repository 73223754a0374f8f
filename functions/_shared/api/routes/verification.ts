import { z } from '@hono/zod-openapi';
import type { Tx } from '../../core/db/client.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import { ApiError } from '../http/errors.ts';
import { errorResponseSpec, json, jsonBody, OrgParams } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { answerJsonText } from '../http/json-text.ts';
import { loadReview, Review } from './reviews/shape.ts';

const VerifyInput = z.object({
  review_id: z.string().uuid(),
  token: z.string().trim().min(1).max(200).optional()
    .openapi({ description: 'E-mail verification: the token from the verification link.' }),
  order_id: z.string().trim().min(1).max(200).optional()
    .openapi({ description: 'Purchase proof: an order id loaded with `POST …/orders`.' }),
}).openapi('VerifyInput', { example: { review_id: '0b6c2d9e-6f3c-4a51-9d7b-2b1f0e8c4a11', order_id: 'A-1001' } });

const DecisionInput = z.object({
  review_id: z.string().uuid(),
  reason: z.string().trim().min(1).max(1000).optional(),
}).openapi('VerificationDecisionInput', {
  example: { review_id: '0b6c2d9e-6f3c-4a51-9d7b-2b1f0e8c4a11', reason: 'Confirmed by phone' },
});

const IsoDateTime = z.string().refine(
  (s) =>
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
  'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
);

const OrderItem = z.object({
  product_external_id: z.string().trim().min(1).max(200).openapi({
    description:
      "The product's `external_id` in your catalog, kept as given: the catalog may know it yet or only later.",
  }),
  quantity: z.number().int().min(1).max(10_000).optional().openapi({ description: 'Defaults to 1.' }),
});

const OrderInput = z.object({
  order_id: z.string().trim().min(1).max(200),
  email: z.string().trim().max(320).email().nullable().optional()
    .openapi({ description: 'When given, a reviewer must use this address for the order to match.' }),
  purchased_at: IsoDateTime.nullable().optional(),
  items: z.array(OrderItem).max(100).optional().openapi({
    description:
      'What the order holds (up to 100 items). A purchase-proof review of a product is verified only when the order holds that product or a product of its `group`; an order without items is matched by its id (and e-mail) alone. Loading the order again replaces its items (left out → none).',
  }),
});

const OrdersInput = z.object({
  orders: z.array(OrderInput).min(1).max(1000),
}).openapi('OrdersInput', {
  example: {
    orders: [{
      order_id: 'A-1001',
      email: 'ada@example.net',
      purchased_at: '2026-01-15',
      items: [{ product_external_id: 'MUG-S', quantity: 2 }],
    }],
  },
});

const OrdersResult = z.object({
  received: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
}).openapi('OrdersResult');

/** The answer to each outcome of plaudit.verify_review_by_token, for the authenticated route. */
const TOKEN_ERRORS: Record<string, ApiError> = {
  not_found: new ApiError(404, 'Review not found'),
  invalid: new ApiError(422, 'token: is not a verification token of this review'),
  expired: new ApiError(422, 'token: has expired (verification links are valid for 7 days)'),
  already_used: new ApiError(409, 'token: has already been used'),
  held: new ApiError(409, 'This review is held for a check: only a person approves or rejects it'),
};

const decisionResponses = {
  200: json(Review, 'The review after the change'),
  404: errorResponseSpec('No review with this id in this organization'),
  409: errorResponseSpec('The review is not pending'),
  422: errorResponseSpec('A field failed validation'),
};

// Approving and rejecting: one route each, the same shape, a different SQL function.
const DECISIONS = {
  approve: {
    summary: 'Manually approve a review',
    description:
      'A pending review (any verification mode) becomes `verified`, method `manual`; anything else answers 409. Recorded in the moderation history with the optional reason; emits `review.verified`.',
  },
  reject: {
    summary: 'Reject a review',
    description:
      'A pending review becomes `rejected` and never appears publicly; anything else answers 409. Recorded in the moderation history with the optional reason; emits `review.verified`.',
  },
} as const;

type Decision = keyof typeof DECISIONS;

function decisionRoute(decision: Decision) {
  return orgRoute('write', {
    method: 'post',
    path: `/organizations/{orgId}/verification/${decision}` as const,
    operationId: `verification.${decision}`,
    tags: ['Verification'],
    ...DECISIONS[decision],
    request: { params: OrgParams, body: jsonBody(DecisionInput) },
    responses: decisionResponses,
  });
}

async function decide(
  db: Tx,
  decision: Decision,
  { review_id, reason }: z.infer<typeof DecisionInput>,
  keyId: string | null,
) {
  await translateDbErrors(() =>
    decision === 'approve'
      ? db`select id from plaudit.approve_review(${review_id}, ${reason ?? null}, ${keyId})`
      : db`select id from plaudit.reject_review(${review_id}, ${reason ?? null}, ${keyId})`
  );
  return loadReview(db, review_id);
}

export const verification = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/verification/verify',
      operationId: 'verification.verify',
      tags: ['Verification'],
      summary: 'Verify a review by e-mail token or purchase proof',
      description:
        'Send `token` (e-mail mode: the token of the link e-mailed to the reviewer; single use, valid 7 days) or `order_id` (purchase-proof forms: must match an order of this organization, and its e-mail when it has one; for a review of a product, an order loaded with items must hold that product or one of its group). A pending review becomes `verified`; the change is recorded with this key as its author and emits `review.verified`.',
      request: { params: OrgParams, body: jsonBody(VerifyInput) },
      responses: decisionResponses,
    }),
    async (c) => {
      const { review_id, token, order_id } = c.req.valid('json');
      if ((token === undefined) === (order_id === undefined)) {
        throw new ApiError(422, 'token: send either token (e-mail verification) or order_id (purchase proof)');
      }
      const db = c.var.db;
      const keyId = c.var.caller!.keyId;
      if (token !== undefined) {
        const [{ outcome }] = await db<{ outcome: string }[]>`
          select outcome from plaudit.verify_review_by_token(${token}, ${review_id}, ${keyId})`;
        if (outcome === 'not_pending') {
          const [review] = await db<{ status: string }[]>`
            select verification_status as status from plaudit.reviews where id = ${review_id}`;
          throw new ApiError(409, `Only a pending review can be verified; this one is ${review.status}`);
        }
        if (outcome !== 'verified') throw TOKEN_ERRORS[outcome] ?? new Error(`unexpected outcome ${outcome}`);
      } else {
        await translateDbErrors(() =>
          db`select id from plaudit.verify_review_by_order(${review_id}, ${order_id!}, ${keyId})`
        );
      }
      return answerJsonText(c, await loadReview(db, review_id), 200);
    },
  )
  .openapi(
    decisionRoute('approve'),
    async (c) => answerJsonText(c, await decide(c.var.db, 'approve', c.req.valid('json'), c.var.caller!.keyId), 200),
  )
  .openapi(
    decisionRoute('reject'),
    async (c) => answerJsonText(c, await decide(c.var.db, 'reject', c.req.valid('json'), c.var.caller!.keyId), 200),
  )
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/orders',
      operationId: 'orders.load',
      tags: ['Verification'],
      summary: 'Load orders for purchase proof',
      description:
        'Bulk upsert of 1 to 1,000 orders (body up to 1 MiB), each with up to 100 `items`. An existing order id takes the new `email`, `purchased_at` and `items` (left out → none); an order id repeated in one request keeps its last occurrence. Purchase-proof submissions and `verify` with `order_id` check against these orders: a review of a product also needs an order that holds the product or one of its group, unless the order was loaded without items.',
      request: { params: OrgParams, body: jsonBody(OrdersInput) },
      responses: {
        200: json(OrdersResult, 'How many orders were new and how many were updated'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const { orders } = c.req.valid('json');
      const db = c.var.db;
      const rows = orders.map((o) => ({
        order_id: o.order_id,
        email: o.email ?? null,
        purchased_at: o.purchased_at ? new Date(o.purchased_at).toISOString() : null,
        items: (o.items ?? []).map((i) => ({ product_external_id: i.product_external_id, quantity: i.quantity ?? 1 })),
      }));
      const [result] = await translateDbErrors(() =>
        db<{ inserted: number; updated: number }[]>`
        select inserted, updated from plaudit.upsert_orders(${orgId}, ${db.json(rows)})`
      );
      return c.json({ received: orders.length, ...result }, 200);
    },
  );
