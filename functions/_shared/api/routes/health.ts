import { createRoute, z } from '@hono/zod-openapi';
import { errorBody } from '../../core/errors.ts';
import { errorResponseSpec, json } from '../http/schemas.ts';
import { router } from './define.ts';

const Health = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  version: z.string(),
}).openapi('Health');

export const VERSION = '0.1.0';

export const health = router().openapi(
  createRoute({
    method: 'get',
    path: '/health',
    operationId: 'health.get',
    tags: ['Health'],
    summary: 'Service health',
    description: 'Answers 200 once the API can reach the database, 503 otherwise. No key needed.',
    responses: {
      200: json(Health, 'The service is up'),
      429: errorResponseSpec('Too many requests from this address'),
      503: errorResponseSpec('The database cannot be reached'),
    },
  }),
  async (c) => {
    try {
      await c.var.sql`select 1`;
    } catch {
      return c.json(errorBody(503, 'The database cannot be reached'), 503);
    }
    return c.json({ status: 'ok' as const, database: 'ok' as const, version: VERSION }, 200);
  },
);
