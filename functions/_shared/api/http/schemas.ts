import { z } from '@hono/zod-openapi';

export const FieldErrorSchema = z.object({
  field: z.string().openapi({
    description: 'The field, as a path into the body or the parameter name: `custom_fields.size`, `limit`.',
    example: 'reviewer_email',
  }),
  code: z.string().openapi({
    description:
      'What is wrong, for programs: `required`, `invalid_type`, `too_short`, `too_long`, `too_small`, `too_big`, `too_few`, `too_many`, `invalid_format`, `invalid_value`, `unknown_field` or `invalid`.',
    example: 'invalid_format',
  }),
  message: z.string().openapi({ description: 'What is wrong, for people.', example: 'must be an e-mail address' }),
}).openapi('FieldError');

export const ErrorSchema = z.object({
  statusCode: z.number().int().openapi({ example: 422 }),
  message: z.string().openapi({ example: 'reviewer_email: must be an e-mail address' }),
  error: z.string().openapi({ example: 'Unprocessable Entity' }),
  errors: z.array(FieldErrorSchema).optional().openapi({
    description: 'On a 400 or 422 that names fields: one entry per field, in the order of the message.',
  }),
}).openapi('Error');

export const Uuid = z.string().uuid();

export const OrgParams = z.object({
  orgId: Uuid.openapi({ param: { name: 'orgId', in: 'path' }, description: 'Organization id' }),
});

export const OrgItemParams = OrgParams.extend({
  id: Uuid.openapi({ param: { name: 'id', in: 'path' }, description: 'The id of the item' }),
});

/** An organization's moderation-trail head, published so that others can keep it (SECURITY.md). */
export const ChainHead = z.object({
  entries: z.number().int().openapi({ description: "Entries in the organization's moderation trail." }),
  head: z.string().nullable().openapi({
    description:
      'Hex SHA-256 of the last entry (null before the first). Keep it: a later rewrite of the trail up to this entry no longer matches it (`GET /organizations/{orgId}/moderation-chain?entries=&head=`).',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  }),
}).openapi('ModerationChainHead');

/** Timestamps leave the API as ISO 8601 UTC strings ending in Z. */
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ErrorSchema } } };
}

/** Error responses every authenticated route can give. */
export const authenticatedErrors = {
  400: errorResponse('Invalid path or query parameters'),
  401: errorResponse('Missing, malformed, unknown, revoked or rotated API key'),
  403: errorResponse('The key belongs to another organization or its scope is too low'),
  429: errorResponse('Rate limit exceeded'),
};

export { errorResponse as errorResponseSpec };

/** The header every POST with an API key honours (middleware/idempotency). */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({
    param: { name: 'idempotency-key', in: 'header' },
    description:
      "Makes a retry safe: the same key with the same body answers the first call's result and changes nothing (kept 24 hours, per organization). 1 to 255 visible ASCII characters; a UUID per logical request is a good choice.",
    example: '5f0c6a44-3e1b-4f7e-9d55-0a3c2b1e7d90',
  }),
});

/** What an Idempotency-Key can answer besides the route's own answers. */
export const idempotencyErrors = {
  409: errorResponse('The request was carried out already, and its answer showed a secret that is not kept'),
  422: errorResponse('The Idempotency-Key was used for another request, or a field failed validation'),
};

/** A JSON response in a route definition. */
export function json<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** A request's JSON body of this schema; required unless `required` is false. */
export function jsonBody<T extends z.ZodTypeAny, R extends boolean = true>(schema: T, required = true as R) {
  return { required, content: { 'application/json': { schema } } };
}
