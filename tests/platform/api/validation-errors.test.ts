import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, submit } from '../../helpers/reviews.ts';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const orgPath = (rest = '') => `/api/v1/organizations/${t.org.id}${rest}`;

describe('a request that fails validation names every field', () => {
  it('lists one entry per field of a body, with a code, in the order of the schema', async () => {
    const res = await api('POST', orgPath('/review-forms'), {
      key: t.keys.write,
      body: {
        name: '',
        verification_mode: 'telepathy',
        is_active: 'yes',
        custom_fields: [{ key: 'size', label: 'Size', type: 'select' }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity'));
    expect(res.body.errors).toEqual([
      { field: 'name', code: 'too_short', message: 'must not be empty' },
      {
        field: 'verification_mode',
        code: 'invalid_value',
        message: 'must be one of: "email", "purchase_proof", "manual", "none"',
      },
      { field: 'custom_fields.0.options', code: 'invalid', message: 'is required for a select field' },
      { field: 'is_active', code: 'invalid_type', message: 'must be a boolean' },
    ]);
    expect(res.body.message).toBe(res.body.errors.map((e: any) => `${e.field}: ${e.message}`).join('; '));
  });

  it('says a missing field is required', async () => {
    const res = await api('POST', orgPath('/review-forms'), { key: t.keys.write, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'name', code: 'required', message: 'is required' }]);
    expect(res.body.message).toBe('name: is required');
  });

  it('gives a field one problem, not every check it failed', async () => {
    const res = await api('PATCH', orgPath(), { key: t.keys.admin, body: { website: 'not a url' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'website', code: 'invalid_format', message: 'must be a URL' }]);
    expect(res.body.message).toBe('website: must be a URL');
    const ftp = await api('PATCH', orgPath(), { key: t.keys.admin, body: { website: 'ftp://example.com/' } });
    expect(ftp.body.errors).toEqual([{ field: 'website', code: 'invalid', message: 'must be an http(s) URL' }]);
  });

  it('names query parameters on a 400', async () => {
    const res = await api('GET', orgPath('/reviews?limit=0&min_rating=9'), { key: t.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request'));
    expect(res.body.errors).toEqual([
      { field: 'limit', code: 'too_small', message: 'must be at least 1' },
      { field: 'min_rating', code: 'too_big', message: 'must be at most 5' },
    ]);
  });

  it('names the field of a refusal that the database decides', async () => {
    const form = await createForm(api, t, {
      custom_fields: [{ key: 'size', label: 'Size', type: 'select', required: true, options: ['S', 'M'] }],
    });
    const res = await submit(api, form.id, {}, freshIp());
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'custom_fields.size', code: 'required', message: 'is required' }]);
  });

  it('names both fields of a rule between two', async () => {
    const res = await api('GET', orgPath('/reviews?min_rating=4&max_rating=2'), { key: t.keys.read });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'min_rating', code: 'invalid', message: 'must not be greater than max_rating' },
    ]);
  });

  it('leaves errors out where no field is at fault', async () => {
    const res = await api('POST', orgPath('/review-forms'), {
      key: t.keys.write,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed JSON in request body' });
  });

  it('tells a client that sends another media type to send JSON', async () => {
    const res = await api('POST', orgPath('/review-forms'), {
      key: t.keys.write,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: 'Unsupported media type: send the body as JSON, with `Content-Type: application/json`',
    });
  });
});
