// The reads whose JSON PostgreSQL writes (plaudit.api_organization, api_review, api_reviews) answer
// exactly what the API wrote before with JSON.stringify: compact, keys in the documented order,
// text escaped the same way.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';

let t: Tenant;
let doc: any;
const HOSTILE = 'Quote " backslash \\ newline\n tab\t emoji 👍🏽 separator \u2028 control \u0001 </script>';

beforeAll(async () => {
  t = await createTenant();
  doc = (await api('GET', '/api/v1/openapi.json')).body;
  await db`update plaudit.organizations set website = 'https://acme.example' where id = ${t.org.id}`;
  const [form] = await db`insert into plaudit.review_forms (org_id, name) values (${t.org.id}, 'F') returning id`;
  await db`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, custom_fields, created_at)
    values (${t.org.id}, ${form.id}, 3, null, ${HOSTILE}, ${HOSTILE}, 'x@example.com', 'pending',
            ${db.json({ b: 1.5, a: 'x', '10': true } as never)}, '2026-03-04T05:06:07.891234Z'),
           (${t.org.id}, ${form.id}, 5, ${HOSTILE}, 'Fine', 'Bo', 'bo@example.com', 'unverified', '{}', now())`;
});

async function text(path: string) {
  const res = await fetch(`${(await import('vitest')).inject('apiUrl')}${path}`, {
    headers: { authorization: `Bearer ${t.keys.read}` },
  });
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return await res.text();
}

const keys = (schema: string) => Object.keys(doc.components.schemas[schema].properties);

describe('reads written by PostgreSQL', () => {
  it('the organization', async () => {
    const body = await text(`/api/v1/organizations/${t.org.id}`);
    expect(body).toBe(JSON.stringify(JSON.parse(body)));
    expect(Object.keys(JSON.parse(body))).toEqual(keys('Organization'));
  });

  it('a page of reviews and one review', async () => {
    const body = await text(`/api/v1/organizations/${t.org.id}/reviews?limit=5`);
    expect(body).toBe(JSON.stringify(JSON.parse(body)));
    const page = JSON.parse(body);
    expect(Object.keys(page)).toEqual(['data', 'meta']);
    expect(page.meta).toEqual({ total: 2, page: 1, limit: 5, totalPages: 1 });
    const old = page.data[1];
    expect(Object.keys(old)).toEqual(keys('Review'));
    expect(old).toMatchObject({
      content: HOSTILE,
      reviewer_name: HOSTILE,
      title: null,
      created_at: '2026-03-04T05:06:07.891Z',
      custom_fields: { '10': true, b: 1.5, a: 'x' },
    });
    expect(page.data[0].title).toBe(HOSTILE);
    const one = await text(`/api/v1/organizations/${t.org.id}/reviews/${old.id}`);
    expect(one).toBe(JSON.stringify(old));
    expect(await text(`/api/v1/reviews?limit=5`)).toBe(body);
  });
});
