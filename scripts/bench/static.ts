// A static file server for the benchmarks: Deno.serve answering one file from disk (FILE), read
// for each request as a file server does, with the headers a stored photo is served with and
// nothing else. Run by scripts/bench.mjs with node_modules/.bin/deno, on PORT.
const port = Number(Deno.env.get('PORT') ?? 8000);
const file = Deno.env.get('FILE');

Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, async () => {
  if (!file) return new Response('ok\n');
  const bytes = await Deno.readFile(file);
  return new Response(bytes, {
    headers: {
      'content-type': 'image/jpeg',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    },
  });
});
