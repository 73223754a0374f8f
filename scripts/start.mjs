// npm start: the whole service on one machine. Runs its own PostgreSQL unless DATABASE_URL is
// set, applies the migrations, and serves the API on Deno. Ctrl-C stops everything it started.
import path from 'node:path';
import { startApi } from './lib/api-server.mjs';
import { applyMigrations, authenticatorUrl, connect, ensureDatabase } from './lib/database.mjs';
import { Cluster } from './lib/postgres.mjs';

const port = Number(process.env.PORT ?? 54321);
const dataDir = path.resolve(process.env.PLAUDIT_DATA_DIR ?? '.plaudit');
const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
const say = (msg) => console.error(`plaudit: ${msg}`);

let cluster;
let api;
let maintenance;
let stopping = false;

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  clearInterval(maintenance);
  await api?.stop();
  if (cluster?.startedHere) {
    say('stopping PostgreSQL');
    cluster.stop();
  }
  process.exit(code);
}

async function main() {
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    cluster = new Cluster({ dir: dataDir, port: Number(process.env.PLAUDIT_DB_PORT ?? 54322) });
    if (!cluster.initialized) {
      say(`creating a PostgreSQL cluster in ${dataDir} (${cluster.binaries.source} binaries)`);
      cluster.init();
    }
    cluster.start();
    say(`PostgreSQL ${cluster.startedHere ? 'started' : 'already running'} on 127.0.0.1:${cluster.port}`);
    await ensureDatabase(cluster.url('postgres'), cluster.database);
    databaseUrl = cluster.url();
  }

  say('applying migrations');
  applyMigrations(databaseUrl);

  const apiDatabaseUrl = process.env.API_DATABASE_URL ?? (cluster ? await authenticatorUrl(databaseUrl) : databaseUrl);

  // Where pg_cron is not loaded, this process runs the scheduled maintenance itself.
  const sql = connect(databaseUrl);
  const [{ cron }] = await sql`select exists (select from pg_extension where extname = 'pg_cron') as cron`;
  if (!cron) {
    maintenance = setInterval(() => sql`select plaudit.run_maintenance()`.catch((e) => say(`maintenance failed: ${e.message}`)), 60_000);
  } else {
    await sql.end();
  }

  api = await startApi({
    port,
    databaseUrl: apiDatabaseUrl,
    env: { PLAUDIT_ENV: process.env.PLAUDIT_ENV ?? 'development', PUBLIC_URL: publicUrl },
  });
  api.child.once('exit', (code) => {
    if (stopping) return;
    say(`the API exited (${code}); stopping`);
    api = undefined;
    shutdown(1);
  });

  const adminCmd = 'npm run --silent admin -- org create --name "Acme Inc" --slug acme';
  console.error(`
  Plaudit is running.
    API       ${publicUrl}/api/v1
    Explorer  ${publicUrl}/docs
    OpenAPI   ${publicUrl}/api/v1/openapi.json

  Create an organization and its first admin key (in another terminal):
    ${adminCmd}

  Press Ctrl-C to stop.
`);
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
main().catch(async (err) => {
  say(err.message);
  await shutdown(1);
});
