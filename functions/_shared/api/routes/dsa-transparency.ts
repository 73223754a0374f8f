// The yearly transparency report in the EU's harmonised templates (DSA Art. 15, 24): the year's
// notices, own-initiative restrictions, automated holds and appeals, as JSON or, at the same path ending in `.csv`
// (as the other CSV answers, e.g. the Meta feed), one figure a row. plaudit.dsa_transparency counts
// them from the notices, statements of reasons and appeals, through the tenant's RLS.
import { z } from '@hono/zod-openapi';
import { toCsv } from '../../core/csv.ts';
import { DSA_FIRST_YEAR } from '../../core/db/public-dsa.ts';
import type { Sql, Tx } from '../../core/db/client.ts';
import { errorResponseSpec, json, OrgParams } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';

const DsaYearQuery = z.object({
  year: z.coerce.number().int().min(DSA_FIRST_YEAR)
    .refine((y) => y <= new Date().getUTCFullYear(), { message: 'must not be after the current year' })
    .openapi({
      param: { name: 'year', in: 'query' },
      description: `The calendar year (UTC), from ${DSA_FIRST_YEAR} to the current one.`,
      example: 2025,
    }),
});

const Median = z.number().nullable().openapi({
  description: 'The median time from receipt to decision, in seconds, of those decided in the year; null if none.',
});

export const DsaTransparencyReport = z.object({
  year: z.number().int(),
  org_id: z.string().uuid(),
  notices: z.object({
    received: z.object({ illegal: z.number().int(), policy: z.number().int(), total: z.number().int() })
      .openapi({ description: 'Notices received in the year, by kind.' }),
    decided: z.object({ hidden: z.number().int(), kept: z.number().int(), total: z.number().int() })
      .openapi({ description: 'Notices decided in the year, whenever received: the review hidden or kept.' }),
    median_seconds_to_decide: Median,
  }),
  own_initiative_restrictions: z.object({
    total: z.number().int(),
    automated: z.number().int(),
    not_automated: z.number().int(),
    by_ground: z.array(z.object({
      ground_type: z.enum(['policy', 'law']),
      ground: z.string(),
      automated: z.boolean(),
      count: z.number().int(),
    })).openapi({ description: 'Most frequent first.' }),
  }).openapi({
    description: "Reviews hidden in the year on the business's own initiative (not by a notice's decision).",
  }),
  automated_holds: z.object({
    bursts: z.number().int().openapi({ description: 'Bursts of one- and two-star reviews that opened a hold.' }),
    held_reviews: z.object({
      burst: z.number().int(),
      duplicate_text: z.number().int(),
      order_reused: z.number().int(),
      total: z.number().int(),
    }).openapi({ description: 'Reviews held as pending at submission, by reason.' }),
  }).openapi({
    description:
      "Automated measures of the business's own initiative that restrict nothing published: new reviews held as pending for a person to check (review bombing holds and duplicates).",
  }),
  appeals: z.object({
    received: z.number().int().openapi({ description: 'Appeals lodged in the year.' }),
    decided: z.object({ upheld: z.number().int(), reversed: z.number().int(), total: z.number().int() })
      .openapi({ description: 'Appeals decided in the year, whenever lodged.' }),
    median_seconds_to_decide: Median,
  }),
}).openapi('DsaTransparencyReport');
type Report = z.infer<typeof DsaTransparencyReport>;

/** The CSV's columns, one figure a row; ground_type, ground and automated only on a ground's row. */
export const DSA_CSV_COLUMNS = ['year', 'section', 'figure', 'ground_type', 'ground', 'automated', 'value'] as const;

export function dsaTransparencyCsv(r: Report): string {
  const row = (
    section: string,
    figure: string,
    value: number | null,
  ) => [r.year, section, figure, '', '', '', value ?? ''];
  const n = r.notices, x = r.own_initiative_restrictions, h = r.automated_holds, a = r.appeals;
  return toCsv([
    [...DSA_CSV_COLUMNS],
    row('notices', 'received_illegal', n.received.illegal),
    row('notices', 'received_policy', n.received.policy),
    row('notices', 'received_total', n.received.total),
    row('notices', 'decided_hidden', n.decided.hidden),
    row('notices', 'decided_kept', n.decided.kept),
    row('notices', 'decided_total', n.decided.total),
    row('notices', 'median_seconds_to_decide', n.median_seconds_to_decide),
    row('own_initiative_restrictions', 'total', x.total),
    row('own_initiative_restrictions', 'automated', x.automated),
    row('own_initiative_restrictions', 'not_automated', x.not_automated),
    ...x.by_ground.map((g) => [
      r.year,
      'own_initiative_restrictions',
      'by_ground',
      g.ground_type,
      g.ground,
      String(g.automated),
      g.count,
    ]),
    row('automated_holds', 'bursts', h.bursts),
    row('automated_holds', 'held_burst', h.held_reviews.burst),
    row('automated_holds', 'held_duplicate_text', h.held_reviews.duplicate_text),
    row('automated_holds', 'held_order_reused', h.held_reviews.order_reused),
    row('automated_holds', 'held_total', h.held_reviews.total),
    row('appeals', 'received', a.received),
    row('appeals', 'decided_upheld', a.decided.upheld),
    row('appeals', 'decided_reversed', a.decided.reversed),
    row('appeals', 'decided_total', a.decided.total),
    row('appeals', 'median_seconds_to_decide', a.median_seconds_to_decide),
  ]);
}

async function reportOf(db: Sql | Tx, year: number): Promise<Report> {
  const [row] = await db<{ report: Report }[]>`select plaudit.dsa_transparency(${year}) as report`;
  return row.report;
}

const refusals = {
  400: errorResponseSpec('The year is missing, not a year, before 2020 or after the current one'),
  403: errorResponseSpec('The key lacks the admin scope, or belongs to another organization'),
};

export const dsaTransparency = router()
  .openapi(
    orgRoute('admin', {
      method: 'get',
      tags: ['Transparency'],
      request: { params: OrgParams, query: DsaYearQuery },
      path: '/organizations/{orgId}/transparency/dsa',
      operationId: 'transparency.dsa',
      summary: 'Get the yearly DSA transparency report',
      description:
        'The figures of the EU transparency-report template for a calendar year (UTC): notices received by kind, decided (hidden or kept) and the median time to decide; restrictions on your own initiative by ground and whether automated; appeals lodged and decided (upheld or reversed) with the median time to decide. Each is counted from the reports, statements of reasons and appeals. The same figures as CSV: `…/transparency/dsa.csv`.',
      responses: { 200: json(DsaTransparencyReport, "The year's figures"), ...refusals },
    }),
    async (c) => c.json(await reportOf(c.var.db, c.req.valid('query').year), 200),
  )
  .openapi(
    orgRoute('admin', {
      method: 'get',
      tags: ['Transparency'],
      request: { params: OrgParams, query: DsaYearQuery },
      path: '/organizations/{orgId}/transparency/dsa.csv',
      operationId: 'transparency.dsaCsv',
      summary: 'Get the yearly DSA transparency report as CSV',
      description: `The figures of \`…/transparency/dsa\`, one a row, in the columns ${
        DSA_CSV_COLUMNS.map((k) => `\`${k}\``).join(', ')
      }; \`ground_type\`, \`ground\` and \`automated\` only on the \`by_ground\` rows; a median with nothing decided is empty.`,
      responses: {
        200: {
          description: "The year's figures, a header line first",
          content: { 'text/csv': { schema: z.string() } },
        },
        ...refusals,
      },
    }),
    async (c) => {
      const { year } = c.req.valid('query');
      return c.body(dsaTransparencyCsv(await reportOf(c.var.db, year)), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="dsa-transparency-${year}.csv"`,
      });
    },
  );
