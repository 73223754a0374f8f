import { z } from '@hono/zod-openapi';

export const ErrorSchema = z.object({
  statusCode: z.number().int().openapi({ example: 404 }),
  message: z.string().openapi({ example: 'Review not found' }),
  error: z.string().openapi({ example: 'Not Found' }),
}).openapi('Error');

export const Uuid = z.string().uuid();

export const OrgParams = z.object({
  orgId: Uuid.openapi({ param: { name: 'orgId', in: 'path' }, description: 'Organization id' }),
});

export const OrgItemParams = OrgParams.extend({
  id: Uuid.openapi({ param: { name: 'id', in: 'path' } }),
});

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

/** A JSON response in a route definition. */
export function json<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}
