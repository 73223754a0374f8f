// npm run sdk:generate: the API's OpenAPI document into sdk/openapi.json (taken from the app
// itself by openapi.ts, under Deno), and its TypeScript types into sdk/src/generated/openapi.ts.
// With a directory argument, writes both there instead (the staleness test compares them).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.resolve(fileURLToPath(import.meta.url), '..', '..');
const root = path.dirname(sdk);
const outDir = process.argv[2] ? path.resolve(process.argv[2]) : null;
const json = outDir ? path.join(outDir, 'openapi.json') : path.join(sdk, 'openapi.json');
const types = outDir ? path.join(outDir, 'openapi.ts') : path.join(sdk, 'src', 'generated', 'openapi.ts');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

fs.mkdirSync(path.dirname(types), { recursive: true });
execFileSync(bin('deno'), ['run', '-A', path.join(sdk, 'scripts', 'openapi.ts'), json], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// No flags: the document itself keeps fields with a default out of `required` and says the
// default in words, so that the generated request bodies leave them optional.
execFileSync(bin('openapi-typescript'), [json, '-o', types], {
  cwd: root,
  env,
  stdio: 'inherit',
});
