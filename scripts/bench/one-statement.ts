// The floor of a Deno API over PostgreSQL, next to which the API's own CPU per request reads:
// Deno.serve and postgres.js (the API's client and pool size) running a read's one statement and
// answering its body, and nothing else: no routing, no checks of the key's form or of the answer,
// no rate limits, no caching or request-id headers, no log line.
//   GET /organizations/:id  (Authorization: Bearer <key>)  plaudit.api_organization's body
//   GET /profiles/:slug     plaudit.public_read_review_page's first page of the profile's feed
// Run by scripts/bench/stack.mjs with node_modules/.bin/deno, on PORT, with API_DATABASE_URL.
import postgres from 'postgres';

const sql = postgres(Deno.env.get('API_DATABASE_URL')!, { max: Number(Deno.env.get('DATABASE_POOL_SIZE') ?? 10) });
const port = Number(Deno.env.get('PORT') ?? 8000);
const encoder = new TextEncoder();
const json = { headers: { 'Content-Type': 'application/json' } };

async function organization(req: Request, orgId: string) {
  const key = req.headers.get('authorization')?.slice('Bearer '.length) ?? '';
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));
  const [row] = await sql`select * from plaudit.api_organization(${hash}, ${orgId}, ${1_000_000_000})`;
  return new Response(row.body, json);
}

async function profileFeed(slug: string) {
  const [row] =
    await sql`select version, body from plaudit.public_read_review_page(${slug}, 'profile', 1, 20, 'newest', null, false)`;
  return new Response(row.body, json);
}

Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, (req) => {
  const [, kind, id] = new URL(req.url).pathname.split('/');
  if (kind === 'organizations') return organization(req, id);
  if (kind === 'profiles') return profileFeed(id);
  return new Response('ready\n'); // the stack waits for it
});
