import { type Context, Hono } from 'hono';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../core/config.ts';
import type { Tx } from '../../../core/db/client.ts';
import type { AppEnv, TenantEnv } from '../../http/env.ts';
import { credential } from '../credential/index.ts';
import { idempotency } from './index.ts';

// app.request() tests: the key's form without the database, then the middleware behind the
// credential middleware against the real database (its rows live in the request's tenant
// transaction), as every POST of an organization route has them (routes/define.ts).
const ready = !!process.env.TEST_API_DATABASE_URL && !!process.env.TEST_DATABASE_URL;

describe('idempotency without the database', () => {
  /** An app whose transaction counts the statements it is asked and answers as if the key were new. */
  function app() {
    const state = { runs: 0, statements: 0 };
    const counting = (() => {
      state.statements++;
      return Promise.resolve([{ key: 'claimed' }]);
    }) as unknown as Tx;
    const a = new Hono<TenantEnv>();
    a.use('*', async (c, next) => {
      c.set('db', counting);
      c.set('caller', { orgId: '00000000-0000-4000-8000-000000000000' } as TenantEnv['Variables']['caller']);
      await next();
    });
    a.post('/things', idempotency(), (c) => c.json({ runs: ++state.runs }, 201));
    return { a, state };
  }

  it('lets a POST without Idempotency-Key through without a statement', async () => {
    const { a, state } = app();
    expect(await (await a.request('/things', { method: 'POST' })).json()).toEqual({ runs: 1 });
    const second = await a.request('/things', { method: 'POST' });
    expect(await second.json()).toEqual({ runs: 2 });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(state.statements).toBe(0);
  });

  it('answers 400 naming the header for a key that is not 1 to 255 visible ASCII characters, before any statement', async () => {
    for (const key of ['x'.repeat(256), 'with space', 'tab\there', 'clé']) {
      const { a, state } = app();
      const res = await a.request('/things', { method: 'POST', headers: { 'idempotency-key': key } });
      expect(res.status, key).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Idempotency-Key: must be 1 to 255 visible ASCII characters',
        errors: [{ field: 'Idempotency-Key', code: 'invalid', message: 'must be 1 to 255 visible ASCII characters' }],
      });
      expect(state).toEqual({ runs: 0, statements: 0 });
    }
    // The shortest and the longest well-formed keys are claimed, and the answer kept.
    for (const key of ['!', '~'.repeat(255)]) {
      const { a, state } = app();
      expect((await a.request('/things', { method: 'POST', headers: { 'idempotency-key': key } })).status).toBe(201);
      expect(state).toEqual({ runs: 1, statements: 2 });
    }
  });
});

describe.skipIf(!ready)('idempotency with the database', () => {
  const owner = postgres(process.env.TEST_DATABASE_URL ?? 'postgres://unused', {
    max: 1,
    prepare: false,
    onnotice: () => {},
  });
  const api = postgres(process.env.TEST_API_DATABASE_URL ?? 'postgres://unused', {
    max: 4,
    prepare: false,
    onnotice: () => {},
  });
  let org: string;
  let other: string;
  const keys: Record<string, string> = {};
  /** How many times each handler ran. */
  let runs: Record<string, number>;
  /** What the flaky route answers next. */
  let outcome: number | 'throw';

  beforeAll(async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    [{ id: org }] = await owner`insert into plaudit.organizations (name, slug) values ('Idem A', ${
      'idem-a-' + suffix
    }) returning id`;
    [{ id: other }] = await owner`insert into plaudit.organizations (name, slug) values ('Idem B', ${
      'idem-b-' + suffix
    }) returning id`;
    for (const [name, of] of [['write', org], ['second', org], ['other', other]]) {
      [{ key: keys[name] }] = await owner`select key from plaudit.issue_api_key(${of}, ${name}, 'write')`;
    }
  });
  afterAll(async () => {
    await owner.end();
    await api.end();
  });
  beforeEach(() => {
    runs = {};
    outcome = 201;
  });

  const ran = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);

  /** Routes of an organization, each behind the credential and idempotency, as orgRoute has them. */
  function app() {
    const a = new Hono<AppEnv>();
    a.onError((_, c) => c.json({ statusCode: 500 }, 500));
    a.use('*', async (c, next) => {
      c.set('sql', api);
      c.set('config', { rateLimitPerMinute: 600, publicUrl: 'http://localhost' } as Config);
      await next();
    });
    const guarded = (...options: Parameters<typeof idempotency>) =>
      [credential({ scope: 'write' }), idempotency(...options)] as const;
    a.post('/orgs/:orgId/forms', ...guarded(), async (c) => {
      ran('forms');
      const { name } = await c.req.json();
      const [form] = await c.var.db<{ id: string; name: string }[]>`
        insert into plaudit.review_forms (org_id, name) values (${c.var.caller!.orgId}, ${name}) returning id, name`;
      if (name === 'slow') await new Promise((r) => setTimeout(r, 300));
      return c.json(form, 201);
    });
    a.post('/orgs/:orgId/words/:word', ...guarded(), (c) => {
      ran('words');
      return c.json({ word: c.req.param('word'), runs: runs.words });
    });
    a.post('/orgs/:orgId/flaky', ...guarded(), async (c) => {
      ran('flaky');
      await c.var.db`insert into plaudit.review_forms (org_id, name) values (${c.var.caller!.orgId}, 'flaky')`;
      if (outcome === 'throw') throw new Error('the handler failed');
      return c.json({ runs: runs.flaky }, outcome as 201);
    });
    a.post('/orgs/:orgId/secrets', ...guarded({ answerShowsSecret: true }), (c) => {
      ran('secrets');
      return c.json({ secret: `whsec_${crypto.randomUUID()}` }, 201);
    });
    // A file whose form changes on every send: only what the route says is compared.
    const fileAsSent = async (c: Context<TenantEnv>) => c.req.header('x-file-digest') ?? '';
    a.post('/orgs/:orgId/files', ...guarded({ comparableBody: fileAsSent }), (c) => {
      ran('files');
      return c.json({ runs: runs.files }, 201);
    });
    return a;
  }

  function post(
    a: Hono<AppEnv>,
    path: string,
    key: string,
    init: { credential?: string; body?: string; headers?: Record<string, string> } = {},
  ) {
    return a.request(`/orgs/${init.credential === 'other' ? other : org}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keys[init.credential ?? 'write']}`,
        'content-type': 'application/json',
        'idempotency-key': key,
        ...init.headers,
      },
      body: init.body,
    });
  }

  const kept = async (key: string, of = org) =>
    await owner<{ route: string; status_code: number | null; response: string | null }[]>`
      select route, status_code, response from plaudit.idempotency_keys where org_id = ${of} and key = ${key}`;
  const formsNamed = async (name: string, of = org) =>
    (await owner`select count(*)::int as n from plaudit.review_forms where org_id = ${of} and name = ${name}`)[0].n;

  it('keeps the first answer with the key and replays it byte for byte, marked, without running the handler again', async () => {
    const a = app();
    const key = crypto.randomUUID();
    const first = await post(a, '/forms', key, { body: JSON.stringify({ name: 'Once' }) });
    const firstText = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await kept(key)).toEqual([{ route: 'POST /orgs/:orgId/forms', status_code: 201, response: firstText }]);
    // The same JSON, spaced and ordered otherwise, is the same request.
    const again = await post(a, '/forms', key, { body: JSON.stringify({ name: 'Once' }, null, 2) });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.text()).toBe(firstText);
    expect(runs.forms).toBe(1);
    expect(await formsNamed('Once')).toBe(1);
  });

  it("replays the first answer's own status", async () => {
    const a = app();
    const key = crypto.randomUUID();
    expect((await post(a, '/words/hello', key)).status).toBe(200);
    const again = await post(a, '/words/hello', key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await again.json()).toEqual({ word: 'hello', runs: 1 });
  });

  it('refuses the key with 422 for another body, another route or another path, changing nothing', async () => {
    const a = app();
    const key = crypto.randomUUID();
    expect((await post(a, '/forms', key, { body: JSON.stringify({ name: 'First' }) })).status).toBe(201);
    const refusals = [
      await post(a, '/forms', key, { body: JSON.stringify({ name: 'Second' }) }),
      await post(a, '/words/hello', key),
    ];
    const other = crypto.randomUUID();
    expect((await post(a, '/words/hello', other)).status).toBe(200);
    refusals.push(await post(a, '/words/goodbye', other));
    for (const res of refusals) {
      expect(res.status).toBe(422);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(await res.json()).toEqual({
        statusCode: 422,
        error: 'Unprocessable Entity',
        message: 'Idempotency-Key: this key was already used for another request; use a new key for each request',
        errors: [{ field: 'Idempotency-Key', code: 'invalid', message: expect.any(String) }],
      });
    }
    expect(runs).toEqual({ forms: 1, words: 1 });
    expect(await formsNamed('Second')).toBe(0);
  });

  it('keeps nothing of a call that failed or threw: the same key runs the call again', async () => {
    const a = app();
    const key = crypto.randomUUID();
    outcome = 503;
    expect((await post(a, '/flaky', key)).status).toBe(503);
    outcome = 'throw';
    expect((await post(a, '/flaky', key)).status).toBe(500);
    expect(await kept(key)).toEqual([]);
    expect(await formsNamed('flaky')).toBe(0);
    outcome = 201;
    const good = await post(a, '/flaky', key);
    expect([good.status, await good.json()]).toEqual([201, { runs: 3 }]);
    outcome = 503;
    const replay = await post(a, '/flaky', key);
    expect([replay.status, await replay.json()]).toEqual([201, { runs: 3 }]);
    expect(runs.flaky).toBe(3);
    expect(await formsNamed('flaky')).toBe(1);
  });

  it('does not keep an answer that shows a secret: a retry is told the call was carried out (409)', async () => {
    const a = app();
    const key = crypto.randomUUID();
    const first = await post(a, '/secrets', key);
    const { secret } = await first.json();
    expect(first.status).toBe(201);
    expect(await kept(key)).toEqual([{ route: 'POST /orgs/:orgId/secrets', status_code: 201, response: null }]);
    const retry = await post(a, '/secrets', key);
    const text = await retry.text();
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([409, 'true']);
    expect(JSON.parse(text)).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Idempotency-Key: this request was carried out already; its answer showed a secret once and is not kept',
    });
    expect(text).not.toContain(secret);
    expect(runs.secrets).toBe(1);
  });

  it("compares what the route declares instead of the body's text", async () => {
    const a = app();
    const key = crypto.randomUUID();
    const file = (boundary: string, digest: string) => ({
      body: `--${boundary}\r\n…\r\n--${boundary}--`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-file-digest': digest },
    });
    expect((await post(a, '/files', key, file('a1', 'same'))).status).toBe(201);
    const again = await post(a, '/files', key, file('b2', 'same'));
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect((await post(a, '/files', key, file('c3', 'another'))).status).toBe(422);
    expect(runs.files).toBe(1);
  });

  it("keeps keys per organization: another key of the organization replays, another organization's call runs", async () => {
    const a = app();
    const key = `shared-${crypto.randomUUID()}`;
    const body = JSON.stringify({ name: 'Shared' });
    const mine = await post(a, '/forms', key, { body });
    const sameOrg = await post(a, '/forms', key, { body, credential: 'second' });
    expect(sameOrg.headers.get('idempotent-replayed')).toBe('true');
    expect(await sameOrg.json()).toEqual(await mine.json());
    const theirs = await post(a, '/forms', key, { body, credential: 'other' });
    expect([theirs.status, theirs.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(runs.forms).toBe(2);
    expect([await formsNamed('Shared'), await formsNamed('Shared', other)]).toEqual([1, 1]);
  });

  it('makes a concurrent retry wait for the first call and answer its result', async () => {
    const a = app();
    const key = crypto.randomUUID();
    const body = JSON.stringify({ name: 'slow' });
    const [one, two] = await Promise.all([post(a, '/forms', key, { body }), post(a, '/forms', key, { body })]);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(await one.text()).toBe(await two.text());
    expect([one.headers.get('idempotent-replayed'), two.headers.get('idempotent-replayed')].sort()).toEqual([
      'true',
      null,
    ].sort());
    expect(runs.forms).toBe(1);
    expect(await formsNamed('slow')).toBe(1);
  });
});
