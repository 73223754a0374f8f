import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import { ApiError } from '../http/errors.ts';
import { fieldsGiven } from '../http/patch.ts';
import { newestFirst, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { Incentive } from './reviews/shape.ts';

export const VerificationMode = z.enum(['email', 'purchase_proof', 'manual', 'none']).openapi({
  description:
    '`email`: a link is e-mailed to the reviewer; `purchase_proof`: the order id is checked against the orders you loaded; `manual`: you approve each review; `none`: reviews are published unverified.',
});

const FieldType = z.enum(['text', 'textarea', 'number', 'select', 'boolean', 'scale', 'rating']).openapi({
  description:
    "`scale`: one of 2–7 ordered labels (`scale`), such as fit; `rating`: 1–5 stars of one aspect, such as Quality. Their answers are public (`attributes` of public reviews and summaries); the other types' stay private.",
});

const CustomFieldDefinition = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_]{0,49}$/, 'must be 1–50 characters of a-z, 0-9 and _, starting with a letter')
    .openapi({ example: 'product' }),
  label: z.string().trim().min(1).max(200).openapi({ example: 'Which product did you buy?' }),
  type: FieldType,
  required: z.boolean().default(false),
  options: z.array(z.string().trim().min(1).max(200)).min(1).max(50).optional()
    .openapi({ description: 'The choices of a `select` field (required for it, refused for other types).' }),
  scale: z.array(z.string().trim().min(1).max(100)).min(2).max(7).optional().openapi({
    description: 'The labels of a `scale` field, in order (required for it, refused for other types).',
    example: ['Runs small', 'True to size', 'Runs large'],
  }),
}).superRefine((f, ctx) => {
  if (f.type === 'select' && !f.options) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'is required for a select field' });
  }
  if (f.type !== 'select' && f.options) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'is only allowed for a select field' });
  }
  if (f.options && new Set(f.options).size !== f.options.length) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'must not repeat a choice' });
  }
  if (f.type === 'scale' && !f.scale) {
    ctx.addIssue({ code: 'custom', path: ['scale'], message: 'is required for a scale field' });
  }
  if (f.type !== 'scale' && f.scale) {
    ctx.addIssue({ code: 'custom', path: ['scale'], message: 'is only allowed for a scale field' });
  }
  if (f.scale && new Set(f.scale).size !== f.scale.length) {
    ctx.addIssue({ code: 'custom', path: ['scale'], message: 'must not repeat a label' });
  }
}).openapi('CustomFieldDefinition');

const CustomFieldDefinitions = z.array(CustomFieldDefinition).max(50).superRefine((fields, ctx) => {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `repeats the key ${f.key}` });
    seen.add(f.key);
  });
});

const ReviewFormInput = z.object({
  name: z.string().trim().min(1).max(200),
  verification_mode: VerificationMode.default('none'),
  custom_fields: CustomFieldDefinitions.default([]),
  is_active: z.boolean().default(true),
  incentive: Incentive.nullable().default(null).openapi({
    description:
      'What you offer for a review written on this form (a discount, a gift …), or null. Each review collected keeps it and is labelled as incentivized.',
  }),
}).openapi('ReviewFormInput', {
  example: {
    name: 'After purchase',
    verification_mode: 'email',
    custom_fields: [{
      key: 'product',
      label: 'Which product did you buy?',
      type: 'select',
      required: true,
      options: ['Mug', 'Plate'],
    }],
  },
});

const ReviewFormPatch = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  verification_mode: VerificationMode.optional(),
  custom_fields: CustomFieldDefinitions.optional(),
  is_active: z.boolean().optional(),
  incentive: Incentive.nullable().optional().openapi({
    description: 'A new incentive, or null for none; reviews already written keep the one they were written with.',
  }),
}).openapi('ReviewFormPatch', { example: { is_active: false } });

const ReviewForm = z.object({
  id: z.string().uuid(),
  name: z.string(),
  verification_mode: VerificationMode,
  custom_fields: z.array(CustomFieldDefinition),
  is_active: z.boolean(),
  incentive: Incentive.nullable(),
  created_at: Timestamp,
  submission_url: z.string().openapi({
    description:
      'The public page of the hosted form: `{PUBLIC_URL}/forms/{id}`. Add `?product=<external_id>` for a review of one of your products (an unknown product answers a 404 page, an archived one a 410 page).',
    example: 'https://reviews.example.com/forms/6f1c…',
  }),
}).openapi('ReviewForm');

type FieldDefinition = z.infer<typeof CustomFieldDefinition>;

type FormRow = {
  id: string;
  name: string;
  verification_mode: z.infer<typeof VerificationMode>;
  custom_fields: FieldDefinition[];
  is_active: boolean;
  incentive: z.infer<typeof Incentive> | null;
  created_at: Date;
};

const COLUMNS = ['id', 'name', 'verification_mode', 'custom_fields', 'is_active', 'incentive', 'created_at'];

/** A definition as stored: `required` always present, `options` only on select fields, `scale` on scale fields. */
function normalizeFields(fields: FieldDefinition[]) {
  return fields.map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    ...(f.type === 'select' ? { options: f.options } : {}),
    ...(f.type === 'scale' ? { scale: f.scale } : {}),
  }));
}

function toForm<E extends AppEnv>(c: Context<E>, r: FormRow) {
  return {
    id: r.id,
    name: r.name,
    verification_mode: r.verification_mode,
    custom_fields: normalizeFields(r.custom_fields),
    is_active: r.is_active,
    incentive: r.incentive,
    created_at: iso(r.created_at)!,
    submission_url: `${c.var.config.publicUrl}/forms/${r.id}`,
  };
}

const notFound = () => new ApiError(404, 'Review form not found');

export const reviewForms = router()
  .openapi(
    orgRoute('write', {
      method: 'post',
      path: '/organizations/{orgId}/review-forms',
      operationId: 'reviewForms.create',
      tags: ['Review forms'],
      summary: 'Create a form',
      request: { params: OrgParams, body: jsonBody(ReviewFormInput) },
      responses: {
        201: json(ReviewForm, 'The new form'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const input = c.req.valid('json');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<FormRow[]>`
        insert into plaudit.review_forms (org_id, name, verification_mode, custom_fields, is_active, incentive)
        values (${orgId}, ${input.name}, ${input.verification_mode},
                ${db.json(normalizeFields(input.custom_fields))}, ${input.is_active},
                ${input.incentive && db.json(input.incentive)})
        returning ${db(COLUMNS)}`
      );
      return c.json(toForm(c, row), 201);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/review-forms',
      operationId: 'reviewForms.list',
      tags: ['Review forms'],
      summary: 'List forms',
      description: 'Forms that are not deleted, newest first.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(ReviewForm), 'A page of forms') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const { rows, total } = await newestFirst<FormRow>(
        db,
        { table: 'plaudit.review_forms', columns: COLUMNS, where: db`deleted_at is null`, ids: 'desc' },
        page,
      );
      return c.json(paginate(rows.map((r) => toForm(c, r)), total, page), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/review-forms/{id}',
      operationId: 'reviewForms.get',
      tags: ['Review forms'],
      summary: 'Get form details',
      request: { params: OrgItemParams },
      responses: {
        200: json(ReviewForm, 'The form'),
        404: errorResponseSpec('No form with this id in this organization, or it was deleted'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.var.db;
      const [row] = await db<FormRow[]>`
        select ${db(COLUMNS)} from plaudit.review_forms where id = ${id} and deleted_at is null`;
      if (!row) throw notFound();
      return c.json(toForm(c, row), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'patch',
      path: '/organizations/{orgId}/review-forms/{id}',
      operationId: 'reviewForms.update',
      tags: ['Review forms'],
      summary: 'Update form settings',
      description:
        'Fields left out stay as they are. A new verification mode applies to reviews submitted from now on; existing reviews keep their status.',
      request: { params: OrgItemParams, body: jsonBody(ReviewFormPatch) },
      responses: {
        200: json(ReviewForm, 'The updated form'),
        404: errorResponseSpec('No form with this id in this organization, or it was deleted'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      const changes = fieldsGiven(patch, ['name', 'verification_mode', 'is_active']);
      if (patch.custom_fields !== undefined) changes.custom_fields = db.json(normalizeFields(patch.custom_fields));
      if (patch.incentive !== undefined) changes.incentive = patch.incentive && db.json(patch.incentive);
      const [row] = Object.keys(changes).length
        ? await translateDbErrors(() =>
          db<FormRow[]>`
            update plaudit.review_forms set ${db(changes)}
            where id = ${id} and deleted_at is null returning ${db(COLUMNS)}`
        )
        : await db<FormRow[]>`
            select ${db(COLUMNS)} from plaudit.review_forms where id = ${id} and deleted_at is null`;
      if (!row) throw notFound();
      return c.json(toForm(c, row), 200);
    },
  )
  .openapi(
    orgRoute('write', {
      method: 'delete',
      path: '/organizations/{orgId}/review-forms/{id}',
      operationId: 'reviewForms.delete',
      tags: ['Review forms'],
      summary: 'Delete a form',
      description:
        'The form stops accepting reviews and disappears from the API; the reviews it collected stay, with their `form_id`.',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Deleted' },
        404: errorResponseSpec('No form with this id in this organization, or it was already deleted'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const rows = await c.var.db`
        update plaudit.review_forms set deleted_at = now()
        where id = ${id} and deleted_at is null returning id`;
      if (rows.length === 0) throw notFound();
      return c.body(null, 204);
    },
  );
