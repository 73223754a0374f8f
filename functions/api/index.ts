// The `api` function: serves /api/v1 locally (npm start) and as a Supabase Edge Function.
import { createApp, lineWriter, stdoutSink } from '../_shared/api/app.ts';
import { loadConfig } from '../_shared/core/config.ts';
import { createSql, refuseUnboundRole } from '../_shared/core/db/client.ts';
import { ReplicaSet } from '../_shared/core/db/replicas.ts';
import { routePublicReads } from '../_shared/core/db/routing.ts';

const config = loadConfig();
const sql = createSql(config.databaseUrl, { max: config.databasePoolSize });
await refuseUnboundRole(sql);
// Hot standbys for the public's reads, checked in the background (docs/scaling.md, "Read replicas").
const replicas = new ReplicaSet(sql, config.replicaUrls, {
  maxLagMs: config.replicaMaxLagMs,
  poolSize: config.databasePoolSize,
}).start();
routePublicReads(sql, replicas);
const port = Deno.env.get('PORT');
// A process of its own (npm start, a server) writes its log straight to stdout; as an Edge
// Function, lines go through console.log, which the runtime collects.
const log = port ? lineWriter(stdoutSink) : undefined;
const app = createApp({ sql, config, replicas: replicas.size > 0 ? replicas : null, log: log?.write });

const handler = (req: Request, info: Deno.ServeHandlerInfo) =>
  app.fetch(req, { remoteAddr: info.remoteAddr as Deno.NetAddr });

if (port) {
  Deno.serve({
    port: Number(port),
    hostname: Deno.env.get('HOST') ?? '127.0.0.1',
    onListen: ({ hostname, port }) =>
      console.log(
        JSON.stringify({
          time: new Date().toISOString(),
          level: 'info',
          msg: 'listening',
          url: `http://${hostname}:${port}`,
        }),
      ),
  }, handler);
} else {
  Deno.serve(handler);
}

// Log lines wait up to 50 ms to be written together: write them when the process ends.
if (log) globalThis.addEventListener('unload', log.flush);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  Deno.addSignalListener(signal, async () => {
    await Promise.all([sql.end({ timeout: 5 }), replicas.stop()]);
    log?.flush();
    Deno.exit(0);
  });
}
