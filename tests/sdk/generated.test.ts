// sdk/openapi.json and sdk/src/generated/openapi.ts are what `npm run sdk:generate` makes from
// today's API: a route or schema changed without regenerating fails here, as the SDK's types
// would no longer describe the API.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');

it('the committed OpenAPI document and types are current (else: npm run sdk:generate)', { timeout: 120_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-generate-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'sdk/scripts/generate.mjs'), dir], { cwd: root, stdio: 'pipe' });
    const read = (p: string) => fs.readFileSync(p, 'utf8');
    expect(read(path.join(dir, 'openapi.json')), 'sdk/openapi.json is stale: npm run sdk:generate')
      .toBe(read(path.join(root, 'sdk/openapi.json')));
    expect(read(path.join(dir, 'openapi.ts')), 'sdk/src/generated/openapi.ts is stale: npm run sdk:generate')
      .toBe(read(path.join(root, 'sdk/src/generated/openapi.ts')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
