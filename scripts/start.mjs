// npm start: the whole service on one machine. Runs its own PostgreSQL unless DATABASE_URL is
// set, applies the migrations, and serves the API and the worker on Deno (in development, with a
// local SMTP server that captures every e-mail). Ctrl-C stops everything it started.
import path from 'node:path';
import { startApi } from './lib/api-server.mjs';
import { stopAllDeno } from './lib/deno-process.mjs';
import { startDevMail } from './lib/dev-mail.mjs';
import { applyMigrations, authenticatorUrl, ensureDatabase, replicaAuthenticatorUrls } from './lib/database.mjs';
import { Cluster } from './lib/postgres.mjs';
import { ensureBuilt } from './lib/builds.mjs';
import { startWorkerProcess } from './lib/worker-process.mjs';

const port = Number(process.env.PORT ?? 54321);
const dataDir = path.resolve(process.env.PLAUDIT_DATA_DIR ?? '.plaudit');
const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
const say = (msg) => console.error(`plaudit: ${msg}`);
const environment = process.env.PLAUDIT_ENV ?? 'development';

let cluster;
let api;
let worker;
let devMail;
let stopping = false;

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  // Every Deno process spawned, including one still starting when the stop came.
  await stopAllDeno(8000);
  await devMail?.close();
  if (cluster?.startedHere) {
    say('stopping PostgreSQL');
    cluster.stop();
  }
  process.exit(code);
}

/**
 * Stops everything when a long-running child exits. Ctrl-C signals the whole process group, and
 * a child may finish before this process has run its own SIGINT handler: a clean exit (0, or by
 * SIGINT) is that stop, not a failure.
 */
function stopWhenItExits(name, child, forget) {
  child.once('exit', (code, signal) => {
    if (stopping) return;
    forget();
    const asked = code === 0 || signal === 'SIGINT';
    say(`the ${name} ${asked ? 'stopped' : `exited (${code ?? signal})`}; stopping`);
    shutdown(asked ? 0 : 1);
  });
}

async function main() {
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    cluster = new Cluster({ dir: dataDir, port: Number(process.env.PLAUDIT_DB_PORT ?? 54322) });
    if (!cluster.initialized) {
      say(
        `creating a PostgreSQL cluster in ${cluster.home} (${cluster.binaries.source} binaries in ${cluster.binaries.bin})`,
      );
      if (cluster.home !== cluster.dir) {
        say(
          `the postgres user cannot enter ${dataDir}: its data lives in ${cluster.home} (PLAUDIT_POSTGRES_HOME), its password in ${dataDir}`,
        );
      }
      cluster.init();
    }
    cluster.start();
    say(`PostgreSQL ${cluster.startedHere ? 'started' : 'already running'} on 127.0.0.1:${cluster.port}`);
    await ensureDatabase(cluster.url('postgres'), cluster.database);
    databaseUrl = cluster.url();
  }

  say('applying migrations');
  await applyMigrations(databaseUrl);
  ensureBuilt();

  // The API and the worker never connect as the owner: row-level security would not bind them.
  const apiDatabaseUrl = process.env.API_DATABASE_URL ?? await authenticatorUrl(databaseUrl);
  // Hot standbys serve the public's reads (docs/scaling.md): the same login, at their addresses.
  const replicaUrls = process.env.API_DATABASE_REPLICA_URLS ??
    replicaAuthenticatorUrls(process.env.DATABASE_REPLICA_URLS, apiDatabaseUrl);

  // In development every e-mail goes to a local capture, unless a real transport is configured.
  const mailEnv = {};
  if (
    environment === 'development' && !process.env.EMAIL_TRANSPORT && !process.env.SMTP_URL &&
    !process.env.RESEND_API_KEY
  ) {
    devMail = await startDevMail({ dataDir: cluster ? dataDir : null });
    Object.assign(mailEnv, { EMAIL_TRANSPORT: 'smtp', SMTP_URL: devMail.smtpUrl });
  }

  if (stopping) return; // a stop came during the set-up: start nothing more
  // The worker drains the outboxes (webhooks, e-mail), generates exports and, where pg_cron is
  // not loaded, runs the scheduled maintenance; NOTIFY plaudit_outbox wakes it.
  worker = await startWorkerProcess({
    databaseUrl: apiDatabaseUrl,
    env: {
      PLAUDIT_ENV: environment,
      PUBLIC_URL: publicUrl,
      EMAIL_FROM: process.env.EMAIL_FROM ?? 'Plaudit <no-reply@plaudit.localhost>',
      // A CDN purge waits for the standbys that serve reads (docs/scaling.md).
      ...(replicaUrls ? { API_DATABASE_REPLICA_URLS: replicaUrls } : {}),
      ...mailEnv,
    },
  });
  stopWhenItExits('worker', worker.child, () => (worker = undefined));

  if (stopping) return;
  api = await startApi({
    port,
    databaseUrl: apiDatabaseUrl,
    env: {
      PLAUDIT_ENV: environment,
      PUBLIC_URL: publicUrl,
      ...(replicaUrls ? { API_DATABASE_REPLICA_URLS: replicaUrls } : {}),
      ...(devMail ? { DEV_MAIL_URL: devMail.httpUrl } : {}),
    },
  });
  stopWhenItExits('API', api.child, () => (api = undefined));

  if (stopping) return;
  const adminCmd = 'npm run --silent admin -- org create --name "Acme Inc" --slug acme --owner-email you@acme.example';
  console.error(`
  Plaudit is running.
    Dashboard ${publicUrl}/app
    API       ${publicUrl}/api/v1
    Explorer  ${publicUrl}/docs
    OpenAPI   ${publicUrl}/api/v1/openapi.json${
    devMail ? `\n    Mail      ${publicUrl}/_dev/mail  (every e-mail sent, captured locally)` : ''
  }

  Create an organization, its owner and its first admin key (in another terminal):
    ${adminCmd}
  then sign in at ${publicUrl}/app with that address${
    devMail ? ` (the sign-in mail is at ${publicUrl}/_dev/mail)` : ''
  }.
  Its public page is then ${publicUrl}/p/acme, and the snippet that embeds its reviews widget in
  any site is in ${publicUrl}/api/v1/public/embed/acme ("snippet").

  Press Ctrl-C to stop.
`);
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
main().catch(async (err) => {
  say(err.message);
  await shutdown(1);
});
