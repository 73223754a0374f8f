// The served OpenAPI document through the linters integrators point at it: Redocly's
// `recommended` ruleset and Spectral's `spectral:oas` with every rule on. Any finding fails, but
// those accepted below, each with its reason.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/http.ts';

interface Finding {
  tool: 'redocly' | 'spectral';
  rule: string;
  where: string;
}

const ACCEPTED: (Finding & { reason: string })[] = [
  {
    tool: 'redocly',
    rule: 'operation-2xx-response',
    where: '#/paths/~1api~1v1~1public~1verifications~1{token}/get/responses',
    reason: 'The e-mailed verification link answers 303 to the confirmation page by design.',
  },
  {
    tool: 'spectral',
    rule: 'contact-properties',
    where: 'info.contact',
    reason: "The contact is the deployment itself (its explorer); an operator's e-mail is not known to the service.",
  },
];

async function servedDocument(): Promise<string> {
  const res = await fetch(`${(await import('vitest')).inject('apiUrl')}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  return await res.text();
}

async function findings(text: string): Promise<(Finding & { message: string })[]> {
  const redocly = await lintFromString({
    source: text,
    absoluteRef: 'openapi.json',
    config: await createConfig({ extends: ['recommended'] }),
  });
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'all']] });
  const results = await spectral.run(new spectralCore.Document(text, spectralParsers.Json, 'openapi.json'));
  return [
    ...redocly.map((p) => ({
      tool: 'redocly' as const,
      rule: p.ruleId,
      where: p.location[0]?.pointer ?? '',
      message: p.message,
    })),
    ...results.map((r) => ({
      tool: 'spectral' as const,
      rule: String(r.code),
      where: r.path.join('.'),
      message: r.message,
    })),
  ];
}

const accepted = (f: Finding) => ACCEPTED.some((a) => a.tool === f.tool && a.rule === f.rule && a.where === f.where);

describe('the OpenAPI document under Redocly and Spectral', () => {
  it('has no finding but the accepted ones', { timeout: 60_000 }, async () => {
    const all = await findings(await servedDocument());
    expect(all.filter((f) => !accepted(f)).map((f) => `${f.tool} ${f.rule} ${f.where}: ${f.message}`)).toEqual([]);
    // An accepted finding that no longer occurs leaves the list.
    expect(ACCEPTED.filter((a) => !all.some((f) => f.tool === a.tool && f.rule === a.rule && f.where === a.where)))
      .toEqual([]);
  });

  it('the linters do find what they are meant to find', { timeout: 60_000 }, async () => {
    const doc = JSON.parse(await servedDocument());
    delete doc.paths['/api/v1/me'].get.operationId;
    doc.paths['/api/v1/me'].get.tags = ['Nowhere'];
    const found = (await findings(JSON.stringify(doc))).filter((f) => !accepted(f)).map((f) => `${f.tool} ${f.rule}`);
    expect(found).toEqual(expect.arrayContaining([
      'redocly operation-operationId',
      'spectral operation-operationId',
      'spectral operation-tag-defined',
    ]));
  });

  it('gives every operation a unique, readable operationId and a described tag', async () => {
    const doc = (await api('GET', '/api/v1/openapi.json')).body;
    const ops = Object.values(doc.paths).flatMap((o: any) => Object.values(o)) as any[];
    const ids = ops.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ops.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/);
    expect(ids).toEqual(
      expect.arrayContaining(['reviews.list', 'reviews.submit', 'apiKeys.rotate', 'exports.download']),
    );
    const tags = new Map(doc.tags.map((t: any) => [t.name, t.description]));
    for (const op of ops) expect(tags.get(op.tags[0]), op.operationId).toMatch(/\w/);
    // Public operations say so: no key.
    expect(doc.paths['/api/v1/reviews'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/public/profiles/{slug}'].get.security).toEqual([]);
  });

  it('documents each webhook event under webhooks, with its own data', async () => {
    const doc = (await api('GET', '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'export.completed',
      'import.completed',
      'order.skipped',
      'question.answered',
      'question.created',
      'review.anonymized',
      'review.created',
      'review.moderated',
      'review.replied',
      'review.reported',
      'review.verified',
      'review_request.canceled',
      'reviews.burst_detected',
      'webhook.test',
    ]);
    const body = doc.webhooks['review.created'].post.requestBody.content['application/json'].schema;
    expect(body.$ref).toBe('#/components/schemas/ReviewCreatedEvent');
    const event = doc.components.schemas.ReviewCreatedEvent;
    expect(event.properties.event).toMatchObject({ type: 'string', enum: ['review.created'] });
    expect(event.properties.data.$ref).toBe('#/components/schemas/ReviewCreatedData');
    // Each event's body names its type in `event`, as a constant: a receiver's union of them is discriminated by it.
    for (const [name, hook] of Object.entries(doc.webhooks) as [string, any][]) {
      const ref = hook.post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(doc.components.schemas[ref].properties.event.enum, name).toEqual([name]);
    }
  });

  it('leaves no shape unknown where it is known', async () => {
    const text = JSON.stringify((await api('GET', '/api/v1/openapi.json')).body);
    // An empty schema, `{}`, accepts anything: the document never says that.
    const doc = JSON.parse(text);
    const empties: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${path}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (
            v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0 &&
            !/example|parameters|security|ApiKey/.test(k)
          ) {
            empties.push(`${path}/${k}`);
          }
          walk(v, `${path}/${k}`);
        }
      }
    };
    walk(doc, '');
    expect(empties).toEqual([]);
    expect(doc.components.schemas.BulkReviewRequestInput.properties.requests.items.$ref).toBe(
      '#/components/schemas/ReviewRequestInput',
    );
    expect(doc.components.schemas.ExportJob.properties.filters.$ref).toBe('#/components/schemas/ExportFilters');
  });
});
