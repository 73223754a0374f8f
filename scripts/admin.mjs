// The admin command line, on the same database as npm start (DATABASE_URL, or the cluster in
// PLAUDIT_DATA_DIR, started for the duration of the command when it is not running).
// Prints exactly one JSON object on stdout; errors are one line on stderr and a non-zero exit.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyMigrations, connect, ensureDatabase } from './lib/database.mjs';
import { Cluster } from './lib/postgres.mjs';

const USAGE = `usage:
  admin org create --name <name> --slug <slug> [--website <url>] [--owner-email <address> [--owner-name <name>]]
  admin org list
  admin key create --org <slug> --scope read|write|admin [--name <name>] [--rate-limit <per minute>]`;

class UsageError extends Error {}

const commands = {
  'org create': async (sql, o) => {
    if (!o.name || !o.slug) throw new UsageError('org create needs --name and --slug');
    return sql.begin(async (tx) => {
      const [org] = await tx`
        insert into plaudit.organizations (name, slug, website)
        values (${o.name}, ${o.slug}, ${o.website ?? null})
        returning id, name, slug`;
      const [key] = await tx`
        select id, key, prefix, scope from plaudit.issue_api_key(${org.id}, 'Initial admin key', 'admin')`;
      if (!o['owner-email']) return { organization: org, api_key: key };
      // The person who runs the organization: its first member, with the owner's role.
      const [owner] = await tx`
        insert into plaudit.members (org_id, email, name, role)
        values (${org.id}, ${o['owner-email'].trim()}, ${o['owner-name'] ?? null}, 'owner')
        returning id, email, name, role`;
      return { organization: org, api_key: key, owner };
    });
  },
  'org list': async (sql) => {
    const rows = await sql`
      select id, name, slug, website, created_at from plaudit.organizations order by created_at, slug`;
    return { data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  },
  'key create': async (sql, o) => {
    if (!o.org || !o.scope) throw new UsageError('key create needs --org <slug> and --scope');
    if (!['read', 'write', 'admin'].includes(o.scope)) throw new UsageError('--scope must be read, write or admin');
    const limit = o['rate-limit'] === undefined ? null : Number(o['rate-limit']);
    if (limit !== null && !(Number.isInteger(limit) && limit >= 1)) {
      throw new UsageError('--rate-limit must be a positive integer');
    }
    const [org] = await sql`select id from plaudit.organizations where slug = ${o.org}`;
    if (!org) throw new Error(`no organization with slug "${o.org}"`);
    const [key] = await sql`
      select id, name, key, prefix, scope, rate_limit_per_minute
      from plaudit.issue_api_key(${org.id}, ${o.name ?? `${o.scope} key`}, ${o.scope}, ${limit})`;
    return { organization: { id: org.id, slug: o.org }, api_key: key };
  },
};

function explain(err) {
  if (err.code === '23505' && /slug/.test(err.constraint_name ?? err.message)) return 'that slug is already taken';
  if (err.code === '23514' && /slug/.test(err.constraint_name ?? '')) {
    return 'a slug is 1 to 63 lowercase letters, digits and hyphens, not starting or ending with a hyphen';
  }
  if (err.code === '23514' && /name/.test(err.constraint_name ?? '')) return 'a name is 1 to 200 characters';
  if (err.code === '23514' && /email/.test(err.constraint_name ?? '')) return '--owner-email must be an e-mail address';
  return err.message;
}

async function withDatabase(fn) {
  if (process.env.DATABASE_URL) {
    const sql = connect(process.env.DATABASE_URL);
    try {
      return await fn(sql);
    } finally {
      await sql.end();
    }
  }
  const dataDir = path.resolve(process.env.PLAUDIT_DATA_DIR ?? '.plaudit');
  const cluster = new Cluster({ dir: dataDir, port: Number(process.env.PLAUDIT_DB_PORT ?? 54322) });
  if (!cluster.initialized) cluster.init();
  cluster.start();
  try {
    await ensureDatabase(cluster.url('postgres'), cluster.database);
    if (cluster.startedHere) await applyMigrations(cluster.url());
    const sql = connect(cluster.url());
    try {
      return await fn(sql);
    } finally {
      await sql.end();
    }
  } finally {
    if (cluster.startedHere) cluster.stop();
  }
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      slug: { type: 'string' },
      website: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      org: { type: 'string' },
      scope: { type: 'string' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const command = commands[positionals.slice(0, 2).join(' ')];
  if (!command || positionals.length !== 2) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  const result = await withDatabase((sql) => command(sql, values));
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => {
  console.error(`plaudit admin: ${err instanceof UsageError ? `${err.message}\n${USAGE}` : explain(err)}`);
  process.exit(err instanceof UsageError ? 64 : 1);
});
