// The yearly DSA transparency report over HTTP: the figures of a seeded year as JSON, exactly; the
// same figures as CSV in its columns; the year validated (400 in the contract's format); the admin
// scope required (a read or write key gets 403); another tenant's records never counted. The public
// transparency page, its markdown twin and the public report show the same year's figures, with a
// year picker of the years that have data, and revalidate (a new ETag, a CDN purge) when a notice comes.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, errorBody } from '../../helpers/http.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { parseCsv } from '../../../functions/_shared/core/csv.ts';
import { escapeHtml } from '../../../functions/_shared/core/html.ts';
import type { DsaFigures } from '../../../functions/_shared/core/db/public-dsa.ts';
import { dsaSections } from '../../../functions/_shared/api/pages/dsa-figures.ts';
import { mdText } from '../../../functions/_shared/api/pages/markdown.ts';

let t: Tenant;
let other: Tenant;
const YEAR = 2024;
const LAW = 'Defamation law "§ 186", StGB';
const dsa = (tenant: Tenant, query: string, key = tenant.keys.admin) =>
  api('GET', `/api/v1/organizations/${tenant.org.id}/transparency/dsa${query}`, { key });

/** A notice of `tenant` on `review`, received at `created` and decided `hours` later (open without). */
async function notice(
  tenant: Tenant,
  review: string,
  kind: string,
  created: string,
  hours?: number,
  decision?: string,
) {
  await db`
    insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith,
                                        status, decision, resolution, resolved_at, resolved_by, created_at)
    select ${tenant.org.id}, ${review}, 'other', sha256(gen_random_uuid()::text::bytea), ${kind},
           case when ${kind} = 'illegal' then ${LAW} end, true,
           case when ${hours ?? null}::integer is null then 'open' else 'resolved' end, ${decision ?? null},
           case when ${hours ?? null}::integer is not null then 'Decided' end,
           ${created}::timestamptz + make_interval(hours => ${hours ?? null}::integer),
           case when ${hours ?? null}::integer is not null then 'member:m1' end, ${created}::timestamptz`;
}

/** A statement of reasons written at `created`, and an appeal against it decided `hours` after `created`. */
async function restriction(
  tenant: Tenant,
  review: string,
  r: { ground_type: string; ground: string; automated: boolean; source: string; created: string },
  appeal?: { status: string; hours: number },
) {
  const [{ id }] = await db<{ id: string }[]>`
    insert into plaudit.review_statements (org_id, review_id, facts, automated, ground_type, ground, source, actor,
                                           appeal_token_hash, created_at)
    values (${tenant.org.id}, ${review}, 'Facts', ${r.automated}, ${r.ground_type}, ${r.ground}, ${r.source},
            'member:m1', sha256(gen_random_uuid()::text::bytea), ${r.created}::timestamptz)
    returning id`;
  if (!appeal) return;
  await db`
    insert into plaudit.review_appeals (org_id, review_id, statement_id, text, status, resolution, decided_at,
                                        decided_by, created_at)
    values (${tenant.org.id}, ${review}, ${id}, 'I was fair', ${appeal.status}, 'Reasons',
            ${r.created}::timestamptz + make_interval(hours => ${appeal.hours}), 'member:m1', ${r.created}::timestamptz)`;
}

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  const [a, b] = await postReviews((await createForm(api, t)).id, `dsa-${t.org.id}`, [
    [1, null, 'Harsh', 'Ann'],
    [2, null, 'Harsher', 'Bob'],
  ]);
  await notice(t, a, 'illegal', '2024-02-01T00:00:00Z', 1, 'hidden');
  await notice(t, b, 'policy', '2024-03-01T00:00:00Z', 3, 'kept');
  await notice(t, b, 'policy', '2024-12-31T23:30:00Z');
  await notice(t, b, 'policy', '2023-06-01T00:00:00Z', 2, 'kept');
  await restriction(t, a, {
    ground_type: 'law',
    ground: LAW,
    automated: false,
    source: 'moderation',
    created: '2024-04-01T00:00:00Z',
  }, { status: 'upheld', hours: 2 });
  await restriction(t, b, {
    ground_type: 'policy',
    ground: 'Spam clause',
    automated: true,
    source: 'automatic',
    created: '2024-05-01T00:00:00Z',
  }, { status: 'reversed', hours: 4 });
  await restriction(t, a, {
    ground_type: 'law',
    ground: LAW,
    automated: false,
    source: 'report',
    created: '2024-02-01T01:00:00Z',
  });
  const [c] = await postReviews((await createForm(api, other)).id, `dsa-${other.org.id}`, [[1, null, 'Meh', 'Cy']]);
  await notice(other, c, 'illegal', '2024-02-01T00:00:00Z', 5, 'hidden');
  await restriction(other, c, {
    ground_type: 'policy',
    ground: 'Spam clause',
    automated: true,
    source: 'automatic',
    created: '2024-05-01T00:00:00Z',
  }, { status: 'upheld', hours: 1 });
});

const expected = () => ({
  year: YEAR,
  org_id: t.org.id,
  notices: {
    received: { illegal: 1, policy: 2, total: 3 },
    decided: { hidden: 1, kept: 1, total: 2 },
    median_seconds_to_decide: 2 * 3600,
  },
  own_initiative_restrictions: {
    total: 2,
    automated: 1,
    not_automated: 1,
    by_ground: [
      { ground_type: 'law', ground: LAW, automated: false, count: 1 },
      { ground_type: 'policy', ground: 'Spam clause', automated: true, count: 1 },
    ],
  },
  automated_holds: { bursts: 0, held_reviews: { burst: 0, duplicate_text: 0, order_reused: 0, total: 0 } },
  appeals: { received: 2, decided: { upheld: 1, reversed: 1, total: 2 }, median_seconds_to_decide: 3 * 3600 },
});

describe('GET /organizations/:orgId/transparency/dsa', () => {
  it("answers the year's figures, counted from the tenant's own records only", async () => {
    const res = await dsa(t, `?year=${YEAR}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(expected());
  });

  it('answers the same figures as CSV, one a row, in its columns', async () => {
    const res = await dsa(t, `.csv?year=${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="dsa-transparency-${YEAR}.csv"`);
    const [headers, ...rows] = parseCsv(res.body).rows;
    expect(headers).toEqual(['year', 'section', 'figure', 'ground_type', 'ground', 'automated', 'value']);
    const e = expected();
    const figure = (
      section: string,
      name: string,
      value: number,
    ) => [String(YEAR), section, name, '', '', '', String(value)];
    const ground = (
      g: (typeof e.own_initiative_restrictions.by_ground)[number],
    ) => [
      String(YEAR),
      'own_initiative_restrictions',
      'by_ground',
      g.ground_type,
      g.ground,
      String(g.automated),
      String(g.count),
    ];
    expect(rows).toEqual([
      figure('notices', 'received_illegal', e.notices.received.illegal),
      figure('notices', 'received_policy', e.notices.received.policy),
      figure('notices', 'received_total', e.notices.received.total),
      figure('notices', 'decided_hidden', e.notices.decided.hidden),
      figure('notices', 'decided_kept', e.notices.decided.kept),
      figure('notices', 'decided_total', e.notices.decided.total),
      figure('notices', 'median_seconds_to_decide', e.notices.median_seconds_to_decide),
      figure('own_initiative_restrictions', 'total', e.own_initiative_restrictions.total),
      figure('own_initiative_restrictions', 'automated', e.own_initiative_restrictions.automated),
      figure('own_initiative_restrictions', 'not_automated', e.own_initiative_restrictions.not_automated),
      ...e.own_initiative_restrictions.by_ground.map(ground),
      figure('automated_holds', 'bursts', 0),
      figure('automated_holds', 'held_burst', 0),
      figure('automated_holds', 'held_duplicate_text', 0),
      figure('automated_holds', 'held_order_reused', 0),
      figure('automated_holds', 'held_total', 0),
      figure('appeals', 'received', e.appeals.received),
      figure('appeals', 'decided_upheld', e.appeals.decided.upheld),
      figure('appeals', 'decided_reversed', e.appeals.decided.reversed),
      figure('appeals', 'decided_total', e.appeals.decided.total),
      figure('appeals', 'median_seconds_to_decide', e.appeals.median_seconds_to_decide),
    ]);
  });

  it('refuses a missing, malformed, too early or future year with a 400 naming it', async () => {
    const next = new Date().getUTCFullYear() + 1;
    for (const query of ['', '?year=abc', '?year=2019', `?year=${next}`, '?year=2024.5']) {
      for (const path of [query, `.csv${query}`]) {
        const res = await dsa(t, path);
        expect(res.status, path).toBe(400);
        expect(res.body, path).toEqual(errorBody(400, 'Bad Request', /year/));
      }
    }
    expect((await dsa(t, `?year=${new Date().getUTCFullYear()}`)).status).toBe(200);
    expect((await dsa(t, '?year=2020')).status).toBe(200);
  });

  it('needs the admin scope: a read or write key gets 403', async () => {
    for (const key of [t.keys.read, t.keys.write]) {
      for (const path of [`?year=${YEAR}`, `.csv?year=${YEAR}`]) {
        const res = await dsa(t, path, key);
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual(errorBody(403, 'Forbidden'));
      }
    }
  });

  it("gets 403 with another organization's key", async () => {
    const res = await api('GET', `/api/v1/organizations/${t.org.id}/transparency/dsa?year=${YEAR}`, {
      key: other.keys.admin,
    });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('Spam');
  });
});

describe("the public transparency page's DSA year", () => {
  const admin = async () => (await dsa(t, `?year=${YEAR}`)).body as DsaFigures;
  const rowsOf = (report: DsaFigures) => dsaSections({ years: [], report }).flatMap((x) => x.rows);

  it("shows the year's figures as the admin report counts them, each in its row", async () => {
    const report = await admin();
    const res = await api('GET', `/p/${t.org.slug}/transparency?year=${YEAR}`);
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(html).toContain(`Notices, hidden reviews and appeals in ${YEAR}`);
    const rows = rowsOf(report);
    expect(rows).toContainEqual(['Notices that a review is illegal', 1]);
    expect(rows).toContainEqual(['Median time to decide', '2.0 h']);
    expect(rows).toContainEqual([`Law: ${LAW} (by a person)`, 1]);
    for (const [label, value] of rows) {
      expect(html).toContain(
        `<th scope="row">${escapeHtml(label)}</th><td class="n">${escapeHtml(String(value))}</td>`,
      );
    }
    expect(html).not.toContain('Defamation law "');
    expect(html).not.toContain(other.org.id);
  });

  it('offers the years with data, and the current one, as links; the year shown is the current page', async () => {
    const html = (await api('GET', `/p/${t.org.slug}/transparency?year=${YEAR}`)).body as string;
    const now = new Date().getUTCFullYear();
    const links = [...html.matchAll(/<a href="[^"]*\/transparency\?year=(\d{4})#dsa"( aria-current="page")?>/g)]
      .map((m) => [Number(m[1]), Boolean(m[2])]);
    expect(links).toEqual([[now, false], [2024, true], [2023, false]]);
    const current = (await api('GET', `/p/${t.org.slug}/transparency`)).body as string;
    expect(current).toContain(`Notices, hidden reviews and appeals in ${now}`);
    expect(current).toContain('<th scope="row">All notices received</th><td class="n">0</td>');
  });

  it("gives another year's page its own canonical address, and the current year's the bare one", async () => {
    const page = `/p/${t.org.slug}/transparency`;
    // The page's own addresses, without the origin (PUBLIC_URL's).
    const links = (html: string) =>
      [...html.matchAll(/<link rel="(canonical|alternate)"[^>]* href="([^"]*)">/g)].map((m) => {
        const u = new URL(m[2]);
        return [m[1], `${u.pathname}${u.search}`];
      });
    const past = (await api('GET', `${page}?year=${YEAR}`)).body as string;
    expect(links(past)).toEqual([['canonical', `${page}?year=${YEAR}`], ['alternate', `${page}.md?year=${YEAR}`]]);
    const now = new Date().getUTCFullYear();
    for (const query of ['', '?year=', `?year=${now}`]) {
      const html = (await api('GET', `${page}${query}`)).body as string;
      expect(links(html), query).toEqual([['canonical', page], ['alternate', `${page}.md`]]);
    }
    expect((await api('GET', `${page}.md?year=${YEAR}`)).body).toMatch(
      new RegExp(`This page as HTML: <[^>]*${page}\\?year=${YEAR}>\\.`),
    );
    expect((await api('GET', `${page}.md`)).body).toMatch(new RegExp(`This page as HTML: <[^>]*${page}>\\.`));
  });

  it('answers 400 for a year it cannot show', async () => {
    for (const y of ['abc', '2019', String(new Date().getUTCFullYear() + 1)]) {
      const res = await api('GET', `/p/${t.org.slug}/transparency?year=${y}`);
      expect(res.status, y).toBe(400);
      expect(res.body).toContain('The year must');
    }
  });

  it('says the same figures in the markdown twin, the ground as text', async () => {
    const report = await admin();
    const res = await api('GET', `/p/${t.org.slug}/transparency.md?year=${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    for (const [label, value] of rowsOf(report)) {
      expect(res.body).toContain(`- ${mdText(label)}: ${mdText(String(value))}`);
    }
    expect(res.body).toContain(`/p/${t.org.slug}/transparency.md?year=2023>`);
  });

  it('adds the figures and the years to the public report, as the admin JSON has them', async () => {
    const res = await api('GET', `/api/v1/public/transparency/${t.org.slug}?year=${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.body.dsa).toEqual(await admin());
    expect(res.body.dsa_years).toEqual([2024, 2023]);
    expect(res.body.slug).toBe(t.org.slug);
    const bad = await api('GET', `/api/v1/public/transparency/${t.org.slug}?year=2019`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorBody(400, 'Bad Request', /year/));
  });

  it('revalidates when a notice comes: a new ETag, a purge asked for, the new count shown', async () => {
    const path = `/p/${other.org.slug}/transparency?year=${YEAR}`;
    const first = await api('GET', path);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await api('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    await db`delete from plaudit.cdn_purges where org_id = ${other.org.id}`;
    const [review] = await db<{ id: string }[]>`select id from plaudit.reviews where org_id = ${other.org.id} limit 1`;
    await notice(other, review.id, 'policy', '2024-07-01T00:00:00Z');
    const [{ n }] = await db<{ n: number }[]>`
      select count(*)::int as n from plaudit.cdn_purges where org_id = ${other.org.id} and status = 'pending'`;
    expect(n).toBe(1);
    const next = await api('GET', path, { headers: { 'if-none-match': etag } });
    expect(next.status).toBe(200);
    expect(next.body).toContain('<th scope="row">All notices received</th><td class="n">2</td>');
  });
});
