// The package as users get it: `npm pack` (whose prepack builds dist/; in a copy of sdk/, so that
// tests reading sdk/dist meanwhile are undisturbed), installed from the tarball into
// an empty project without the network, imported under Node and under Deno to list reviews from
// the test server, type-checked as a consumer sees it, and small enough.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { postReviews } from '../helpers/reviews.ts';
import { client } from './helpers.ts';
import { startReceiver } from '../helpers/receiver.ts';

const root = path.resolve(__dirname, '..', '..');
const sdk = path.join(root, 'sdk');
const MAX_GZIP_BYTES = 10 * 1024;

let dir: string;
let project: string;
let tarball: string;
let t: Tenant;

const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', npm_config_update_notifier: 'false', ...env },
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-pack-'));
  const copy = path.join(dir, 'sdk');
  fs.cpSync(sdk, copy, { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$/.test(src) });
  const bin = path.join(root, 'node_modules', '.bin');
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', dir], copy, {
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    }),
  );
  tarball = path.join(dir, packed.filename);
  project = path.join(dir, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], project);

  t = await createTenant();
  const form = await client(t, 'write').reviewForms.create({ name: 'Packaged' });
  await postReviews(form.id, `sdk-pack-${t.org.id}`, [[5, null, 'From the tarball', 'Pat'], [4, null, 'Also', 'Sam']]);
}, 180_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A consumer's script: lists the tenant's reviews through the installed package. */
function script(): string {
  return `import { Plaudit, verifyWebhook, NotFoundError } from '@plaudit/sdk';
const plaudit = new Plaudit(${
    JSON.stringify({ apiKey: t.keys.read, baseUrl: inject('apiUrl'), organizationId: t.org.id })
  });
const page = await plaudit.reviews.list({ limit: 1 });
const all = [];
for await (const review of plaudit.reviews.list({ limit: 1 })) all.push(review.content);
let notFound = false;
try { await plaudit.reviews.get(crypto.randomUUID()); } catch (err) { notFound = err instanceof NotFoundError; }
console.log(JSON.stringify({ total: page.meta.total, all, notFound, verify: typeof verifyWebhook }));
`;
}

describe('the packed package', () => {
  it('holds the built ESM, its declarations and the README, and no sources or tests', () => {
    const listing = run('tar', ['-tzf', tarball], dir).split('\n').filter(Boolean);
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/README.md');
    expect(listing.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@plaudit/sdk/package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.type).toBe('module');
  });

  it(`its JavaScript is at most ${MAX_GZIP_BYTES} bytes gzipped`, () => {
    const dist = path.join(project, 'node_modules/@plaudit/sdk/dist');
    const files = fs.readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).sort();
    const js = Buffer.concat(files.map((f) => fs.readFileSync(path.join(dist, f))));
    const size = gzipSync(js, { level: 9 }).length;
    console.log(`@plaudit/sdk: ${files.length} modules, ${js.length} bytes, ${size} bytes gzipped`);
    expect(size).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });

  it('lists reviews under Node', () => {
    fs.writeFileSync(path.join(project, 'node.mjs'), script());
    const out = JSON.parse(run(process.execPath, ['node.mjs'], project));
    expect(out).toEqual({ total: 2, all: ['Also', 'From the tarball'], notFound: true, verify: 'function' });
  });

  it('lists reviews under Deno', { timeout: 60_000 }, () => {
    fs.writeFileSync(path.join(project, 'deno.mjs'), script());
    const out = JSON.parse(run(path.join(root, 'node_modules/deno/deno'), ['run', '-A', 'deno.mjs'], project));
    expect(out).toEqual({ total: 2, all: ['Also', 'From the tarball'], notFound: true, verify: 'function' });
  });

  it('type-checks in a TypeScript project that uses it', { timeout: 120_000 }, () => {
    fs.writeFileSync(
      path.join(project, 'use.ts'),
      `import { Plaudit, type Review } from '@plaudit/sdk';
const plaudit = new Plaudit({ apiKey: 'rk_x' });
export async function first(): Promise<Review | undefined> {
  return (await plaudit.reviews.list({ min_rating: 4 })).data[0];
}
// @ts-expect-error a misspelled filter
plaudit.reviews.list({ min_ratng: 4 });
`,
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        include: ['use.ts'],
      }),
    );
    run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  });
});

describe("an integrator's first script, with the installed package", () => {
  it('lists every review, creates a form, handles a 422 by its field and verifies a webhook, in under 20 lines', {
    timeout: 60_000,
  }, async () => {
    // A real delivery, as an endpoint of the integrator's would receive it.
    const receiver = await startReceiver();
    try {
      const admin = client(t, 'write');
      const hook = await admin.webhooks.create({ url: `${receiver.url}/hook`, events: ['review.created'] });
      await admin.webhooks.test(hook.id, { event: 'review.created' });
      const [delivery] = await receiver.waitFor(1);
      const first = `import { Plaudit, ValidationError, verifyWebhook } from '@plaudit/sdk';
const plaudit = new Plaudit({ apiKey: process.env.PLAUDIT_API_KEY, baseUrl: process.env.PLAUDIT_URL });
const contents = [];
for await (const review of plaudit.reviews.list({ limit: 1 })) contents.push(review.content);
const form = await plaudit.reviewForms.create({ name: 'After purchase', verification_mode: 'email' });
let field;
try {
  await plaudit.reviewForms.create({ name: '' });
} catch (err) {
  if (err instanceof ValidationError) field = err.errors[0].field;
}
const { body, headers, secret } = JSON.parse(process.env.DELIVERY);
const event = await verifyWebhook(body, headers, secret);
console.log(JSON.stringify({ contents, form: form.name, field, event: event.event }));
`;
      expect(first.trim().split('\n').length).toBeLessThan(20);
      fs.writeFileSync(path.join(project, 'first.mjs'), first);
      const out = JSON.parse(run(process.execPath, ['first.mjs'], project, {
        PLAUDIT_API_KEY: t.keys.write,
        PLAUDIT_URL: inject('apiUrl'),
        DELIVERY: JSON.stringify({ body: delivery.body, headers: delivery.headers, secret: hook.secret }),
      }));
      expect(out).toEqual({
        contents: ['Also', 'From the tarball'],
        form: 'After purchase',
        field: 'name',
        event: 'review.created',
      });
    } finally {
      await receiver.close();
    }
  });
});
