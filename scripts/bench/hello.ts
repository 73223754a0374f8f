// The HTTP ceiling for the benchmarks: Deno.serve answering a constant and doing nothing else.
// Run by scripts/bench.mjs with node_modules/.bin/deno, on PORT.
const port = Number(Deno.env.get('PORT') ?? 8000);
const body = 'Hello, world!\n';

Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, () => new Response(body));
