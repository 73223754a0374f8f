import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import type { Config } from '../../core/config.ts';
import { UPLOAD_TOKEN_HOURS } from '../../core/media/limits.ts';
import type { AppEnv } from '../http/env.ts';
import { VERSION } from '../routes/health.ts';
import { WEBHOOK_EVENTS } from '../routes/webhooks/events.ts';

// The OpenAPI 3.1 document, as integrators' tools read it: every operation with a stable
// `operationId` (`reviews.list`) and a tag described here, public operations marked as taking no
// key, webhook payloads under `webhooks`. tests/api/openapi-lint.test.ts lints it with Redocly
// and Spectral.

const TAGS = [
  {
    name: 'Reviews',
    description: 'Submit, list, read and moderate reviews; check the tamper-evident moderation trail.',
  },
  {
    name: 'Reports',
    description:
      "Visitors' reports (notices, EU DSA Art. 16) of published reviews, decided by the business: the review hidden or kept.",
  },
  {
    name: 'Questions',
    description:
      "Shoppers' questions about products and the business: answered by the business and by verified buyers, hidden or shown again.",
  },
  {
    name: 'Appeals',
    description:
      "Reviewers' appeals against a hide (EU DSA Art. 20), made from the statement of reasons' link and decided by a member.",
  },
  {
    name: 'Holds',
    description:
      'Review bombing holds: a burst of one- and two-star reviews of one subject holds its new reviews as pending until a member releases it; duplicates held at submission.',
  },
  {
    name: 'Transparency',
    description:
      'The yearly transparency report (EU DSA Art. 15, 24): notices, own-initiative restrictions and appeals, counted from their records.',
  },
  { name: 'Review forms', description: 'The forms reviews are written with: custom fields and the verification mode.' },
  {
    name: 'Verification',
    description: 'Verify reviews by e-mail token or purchase proof, approve or reject them, load orders.',
  },
  {
    name: 'Products',
    description: 'The catalog of what the business sells, each product known by your own id; synced in bulk.',
  },
  {
    name: 'Review requests',
    description: 'Invite customers to write a review by e-mail, one or in bulk; statuses, reminders, statistics.',
  },
  {
    name: 'Connections',
    description:
      'Shops connected to the organization (Shopify, WooCommerce, Stripe, any shop by signed webhooks): their events, the orders they make, and the review request each order makes.',
  },
  {
    name: 'Public data',
    description: 'What a business publishes: no key needed; cached and rate-limited per address.',
  },
  {
    name: 'Agents',
    description:
      "The Model Context Protocol server: ratings, reviews, products and transparency for AI agents; with a key, the organization's tools.",
  },
  { name: 'Public profile', description: "The settings of the business's public profile page and widget." },
  { name: 'Organizations', description: "The organization's own settings." },
  { name: 'Members', description: 'Team members and their invitations.' },
  { name: 'API keys', description: 'Keys for the API: create, list, rotate (with a grace period), revoke.' },
  {
    name: 'Webhooks',
    description: 'Endpoints that receive signed events, their delivery log, tests and redelivery.',
  },
  {
    name: 'Privacy',
    description: "A reviewer's rights over their address: erasure, and a report of everything held about it (admin).",
  },
  {
    name: 'Imports',
    description: 'Reviews brought from Judge.me, Yotpo, Okendo, Loox, Shopify Product Reviews or another Plaudit.',
  },
  { name: 'Exports', description: "Files of the organization's reviews, CSV or JSON, generated in the background." },
  { name: 'Health', description: 'Whether the service and its database are up.' },
  {
    name: 'Sign-in',
    description:
      'Members sign in to the dashboard by e-mail (a one-time link or a 6-digit code); the session cookie then reaches the organization routes like an API key, with `X-CSRF-Token` on every change.',
  },
];

const DeliveryHeaders = z.object({
  'webhook-id': z.string().openapi({
    description: 'The message id, the same on every attempt and redelivery: drop duplicates by it.',
    example: 'msg_2Vb3yLq8',
  }),
  'webhook-timestamp': z.string().openapi({
    description: 'Unix seconds of this attempt; refuse old ones (Standard Webhooks).',
    example: '1764000000',
  }),
  'webhook-signature': z.string().openapi({
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the decoded secret; two, space-separated, during a secret rotation.',
  }),
  'x-webhook-signature': z.string().openapi({
    description: 'Lowercase hex HMAC-SHA256 of the exact body, keyed with the secret string `whsec_…`.',
  }),
  'x-webhook-event': z.string().openapi({ description: 'The event type, as in the body.' }),
  'x-webhook-attempt': z.string().openapi({ description: 'This delivery attempt, from 1.' }),
});

const SUMMARIES: Record<keyof typeof WEBHOOK_EVENTS, string> = {
  'review.created': 'A review was submitted',
  'review.moderated': 'A review was hidden or shown again',
  'review.verified': "A review's verification status changed",
  'review.replied': 'A reply to a review was written, edited or withdrawn',
  'review.anonymized': "A reviewer's address was erased at their request",
  'review.reported': 'A visitor reported a published review',
  'question.created': "A shopper's question was confirmed and published",
  'question.answered': 'A question got an answer',
  'export.completed': 'An export file is ready',
  'import.completed': 'An import of reviews finished',
  'order.skipped': 'An order of a connection makes no review request, and why',
  'review_request.canceled': 'A review request was canceled before it was sent: its order was cancelled or refunded',
  'reviews.burst_detected': 'An unusual number of one- and two-star reviews of one subject: new ones are held',
  'webhook.test': 'A test delivery',
};

/** Registers what routes do not: the key's scheme and the webhook payloads. Call once, after the routes. */
export function registerDocumentParts(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key, `rk_…`, created with the admin command line or the API-key routes.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'Session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'plaudit_session',
    description:
      "A member's dashboard session (`POST /auth/verify` sets it; `__Host-plaudit_session` over https). It acts with its role's scope in the organizations its person belongs to. Every POST, PUT, PATCH and DELETE made with it also needs `X-CSRF-Token`.",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'UploadToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Upload-Token',
    description:
      `A review's upload token (\`media_upload.token\` in the answer to \`POST /reviews\`): adds photos and videos to that review for ${UPLOAD_TOKEN_HOURS} hours.`,
  });
  for (const [event, schema] of Object.entries(WEBHOOK_EVENTS) as [keyof typeof WEBHOOK_EVENTS, z.ZodTypeAny][]) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: event,
      operationId: `webhooks.events.${event.replace('.', '_')}`,
      tags: ['Webhooks'],
      summary: SUMMARIES[event],
      description:
        'POSTed to each enabled endpoint subscribed to this event (or to `*`). The body is compact JSON, signed over its exact bytes. Answer 2xx within the timeout; anything else is retried on a schedule over about three days.',
      security: [],
      request: {
        headers: DeliveryHeaders,
        body: { required: true, content: { 'application/json': { schema } } },
      },
      responses: { 200: { description: 'Any 2xx answer acknowledges the delivery.' } },
    });
  }
}

/**
 * A body field with a default is optional to send, and a generator that reads `default` as "always
 * present" (openapi-typescript's default) would make clients send it: the default is said in
 * words instead, and the field stays out of `required`.
 */
function defaultsInWords(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(defaultsInWords);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.properties && typeof schema.properties === 'object') {
    for (const property of Object.values(schema.properties as Record<string, Record<string, unknown>>)) {
      if (property && typeof property === 'object' && 'default' in property) {
        const said = `Defaults to \`${JSON.stringify(property.default)}\`.`;
        property.description = property.description ? `${property.description} ${said}` : said;
        delete property.default;
      }
    }
  }
  Object.values(schema).forEach(defaultsInWords);
}

/** The document: the routes' definitions, with every operation that takes no key marked public. */
export function openApiDocument(app: OpenAPIHono<AppEnv>, config: Config) {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Plaudit API',
      version: VERSION,
      description:
        'Collect, verify, moderate and publish customer reviews. Errors answer `{"statusCode","message","error"}`, with `errors: [{"field","code","message"}]` when fields are at fault; every response carries `X-RateLimit-*` headers; every POST that takes a key honours `Idempotency-Key`.',
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      contact: { name: 'This Plaudit service', url: `${config.publicUrl}/api/v1/docs` },
    },
    servers: [{ url: config.publicUrl, description: 'This service' }],
    tags: [...TAGS].sort((a, b) => a.name.localeCompare(b.name)),
  });
  defaultsInWords(doc.components?.schemas);
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops as Record<string, { security?: unknown[] }>)) {
      if (typeof op === 'object' && op !== null && !('security' in op)) op.security = [];
    }
  }
  return doc;
}
