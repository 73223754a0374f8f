// Writes the API's OpenAPI document to sdk/openapi.json: the app is built in process (no database,
// no server) and asked for /api/v1/openapi.json. Run by `npm run sdk:generate` (scripts/generate.mjs);
// the file to write may be given as the first argument.
import { createApp } from '../../functions/_shared/api/app.ts';
import { loadConfig } from '../../functions/_shared/core/config.ts';

const app = createApp({
  sql: {} as never,
  config: loadConfig({
    databaseUrl: 'postgres://unused',
    environment: 'production',
    publicUrl: 'http://127.0.0.1:54321',
  }),
  log: () => {},
});
const res = await app.request('/api/v1/openapi.json');
if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
const doc = await res.json();
const out = Deno.args[0] ?? new URL('../openapi.json', import.meta.url).pathname;
await Deno.writeTextFile(out, JSON.stringify(doc, null, 2) + '\n');
console.log(`wrote ${out} (${Object.keys(doc.paths).length} paths)`);
