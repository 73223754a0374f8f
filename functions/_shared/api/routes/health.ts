import { z } from '@hono/zod-openapi';
import { errorBody } from '../../core/errors.ts';
import { errorResponseSpec, json } from '../http/schemas.ts';
import { publicRoute, router } from './define.ts';

const Health = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  version: z.string(),
  replicas: z.array(
    z.object({
      healthy: z.boolean().openapi({
        description: 'Reachable, replaying, and within `REPLICA_MAX_LAG_MS` of the primary: it serves public reads.',
      }),
      lag_ms: z.number().int().nullable().openapi({
        description: 'How far behind the primary it is, by WAL position; null while it cannot be reached.',
        example: 12,
      }),
    }),
  ).openapi({
    description:
      'The read replicas, in the order configured (never their addresses), as the last background check found them; empty without any.',
  }),
}).openapi('Health');

export const VERSION = '0.1.0';

export const health = router().openapi(
  publicRoute({
    method: 'get',
    path: '/health',
    operationId: 'health.get',
    tags: ['Health'],
    summary: 'Service health',
    description:
      'Answers 200 once the API can reach the database, 503 otherwise; read replicas that are down or lagging leave it 200 (their reads go to the primary) and show in `replicas`. No key needed.',
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
    const replicas = c.var.replicas?.health() ?? [];
    return c.json({ status: 'ok' as const, database: 'ok' as const, version: VERSION, replicas }, 200);
  },
);
