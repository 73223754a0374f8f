// The review-request automation of an organization (admin): whether orders from its connections
// make review requests, on which event, after how many days, on which form, and for which
// products not. The decisions themselves are the database's (orders_timeline.sql).
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import { translateDbErrors } from '../../http/db-errors.ts';
import { fieldsGiven } from '../../http/patch.ts';
import { errorResponseSpec, json, jsonBody, OrgParams } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';

const TAGS = ['Review requests'];
const PATH = '/organizations/{orgId}/review-requests/automation';

export const Automation = z.object({
  enabled: z.boolean(),
  trigger: z.enum(['fulfilled', 'delivered', 'paid']),
  delay_days: z.number().int(),
  form_id: z.string().uuid().nullable(),
  exclude_products: z.array(z.string()),
}).openapi('ReviewRequestAutomation');

const AutomationPatch = z.object({
  enabled: z.boolean().optional(),
  trigger: z.enum(['fulfilled', 'delivered', 'paid']).optional().openapi({
    description:
      "`fulfilled`: the first fulfilment of any item; `delivered`: Shopify's delivered shipment status or the webhook `order.delivered` (platforms without it fall back to `fulfilled`); `paid`.",
  }),
  delay_days: z.number().int().min(0).max(90).optional(),
  form_id: z.string().uuid().nullable().optional(),
  exclude_products: z.array(z.string().trim().min(1).max(200)).max(1000).optional()
    .openapi({ description: 'External ids of products never asked about.' }),
}).openapi('ReviewRequestAutomationPatch', {
  example: { trigger: 'fulfilled', delay_days: 7, exclude_products: ['GIFT-CARD'] },
});

async function readAutomation(db: Tx): Promise<z.infer<typeof Automation>> {
  const [row] = await db<z.infer<typeof Automation>[]>`
    select a.enabled, a.trigger, a.delay_days, a.form_id, a.exclude_products
      from plaudit.review_request_automation_of(plaudit.current_org_id()) a`;
  return row;
}

export const automation = router()
  .openapi(
    orgRoute('admin', {
      method: 'get',
      path: PATH,
      operationId: 'reviewRequestAutomation.get',
      tags: TAGS,
      summary: 'Get the review-request automation',
      description:
        'Off by default; trigger `fulfilled`, 7 days after it. When an order of a connection reaches the trigger, one review request is made for it.',
      request: { params: OrgParams },
      responses: { 200: json(Automation, 'The automation settings') },
    }),
    async (c) => c.json(await readAutomation(c.var.db), 200),
  )
  .openapi(
    orgRoute('admin', {
      method: 'patch',
      path: PATH,
      operationId: 'reviewRequestAutomation.update',
      tags: TAGS,
      summary: 'Change the review-request automation',
      description: 'Fields left out stay as they are. Enabling it needs a form (`form_id`).',
      request: { params: OrgParams, body: jsonBody(AutomationPatch) },
      responses: {
        200: json(Automation, 'The settings after the change'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      if (patch.form_id) {
        const [form] = await db`select 1 from plaudit.review_forms where id = ${patch.form_id} and deleted_at is null`;
        if (!form) throw new ApiError(422, 'form_id: no review form with this id in this organization');
      }
      const current = await readAutomation(db);
      if (
        (patch.enabled ?? current.enabled) && (patch.form_id === undefined ? current.form_id : patch.form_id) === null
      ) {
        throw new ApiError(422, 'form_id: the automation needs a form to be enabled');
      }
      const changes = fieldsGiven(patch, ['enabled', 'trigger', 'delay_days', 'form_id']);
      if (patch.exclude_products) changes.exclude_products = db.array([...new Set(patch.exclude_products)]);
      if (Object.keys(changes).length) {
        await translateDbErrors(() =>
          db`insert into plaudit.review_request_automation ${db({ org_id: orgId, ...changes })}
             on conflict (org_id) do update set ${db({ ...changes, updated_at: new Date() })}`
        );
      }
      return c.json(await readAutomation(db), 200);
    },
  );
