// The floor of a Deno API over PostgreSQL for a keyed read, next to which the API's own CPU per
// request reads: Deno.serve and postgres.js (the API's client and pool size) running the
// organization read's one statement (plaudit.api_organization) for the bearer key and the
// path's organization, answering its body, and nothing else: no routing, no checks of the key's
// form or of the answer, no rate-limit or request-id headers, no log line.
// Run by scripts/bench/stack.mjs with node_modules/.bin/deno, on PORT, with API_DATABASE_URL.
import postgres from 'postgres';

const sql = postgres(Deno.env.get('API_DATABASE_URL')!, { max: Number(Deno.env.get('DATABASE_POOL_SIZE') ?? 10) });
const port = Number(Deno.env.get('PORT') ?? 8000);
const encoder = new TextEncoder();

Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, async (req) => {
  if (new URL(req.url).pathname === '/') return new Response('ready\n'); // the stack waits for it
  const key = req.headers.get('authorization')?.slice('Bearer '.length) ?? '';
  const orgId = req.url.slice(req.url.lastIndexOf('/') + 1);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));
  const [row] = await sql`select * from plaudit.api_organization(${hash}, ${orgId}, ${1_000_000_000})`;
  return new Response(row.body, { headers: { 'Content-Type': 'application/json' } });
});
