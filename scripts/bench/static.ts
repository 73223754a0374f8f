// A static file server for the benchmarks: Deno.serve answering one file from disk (FILE), read
// for each request as a file server does, with the headers a stored photo is served with and
// nothing else: read whole (Deno.readFile) at any path, or streamed from the open file (what the
// API does since it streams) at /stream/…. Run by scripts/bench.mjs with node_modules/.bin/deno, on PORT.
const port = Number(Deno.env.get('PORT') ?? 8000);
const file = Deno.env.get('FILE');
const headers = {
  'content-type': 'image/jpeg',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
};

Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, async (req) => {
  if (!file) return new Response('ok\n');
  if (new URL(req.url).pathname.startsWith('/stream/')) {
    const open = await Deno.open(file);
    const { size } = await open.stat();
    return new Response(open.readable, { headers: { ...headers, 'content-length': String(size) } });
  }
  return new Response(await Deno.readFile(file), { headers });
});
