// What every part of the filler shares: running a step as the role the product runs it as, the
// schema the database has (a release may predate a kind: its step is skipped, judged from the
// catalog), and one organization's handles.
import { createHash } from 'node:crypto';
import type postgres from 'postgres';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
type Role = 'plaudit_api' | 'plaudit_public' | 'plaudit_worker' | 'plaudit_authenticator';
type Step = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** What the service's links start with (PUBLIC_URL). */
export const LINK_BASE = 'https://reviews.example';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Throws unless a product call answered what it answers on success: the filler must not half-fill. */
export function expectAnswer(what: string, actual: unknown, expected: unknown) {
  if (actual !== expected) {
    throw new Error(`${what}: answered ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
  }
}

/**
 * Runs `fn` in a transaction as `role`, with the tenant and the actor set as the API sets them.
 * `fn` uses only `tx`: the client may have a single connection, which the transaction holds.
 */
export async function as<T>(
  sql: Sql,
  role: Role,
  fn: (tx: Tx) => Promise<T>,
  { orgId, actor }: { orgId?: string; actor?: string } = {},
): Promise<T> {
  return await sql.begin(async (tx) => {
    if (orgId) await tx`select set_config('plaudit.org_id', ${orgId}, true)`;
    if (actor) await tx`select set_config('plaudit.actor', ${actor}, true)`;
    await tx.unsafe(`set local role ${role}`);
    return await fn(tx);
  }) as T;
}

/** The newest e-mail of `template` to `to`, as the worker would claim it. */
export async function newestMail(sql: Sql, template: string, to: string): Promise<{ id: string; data: any }> {
  const [mail] = await sql<{ id: string; data: any }[]>`
    select id, data from plaudit.email_outbox where template = ${template} and lower(to_address) = lower(${to})
    order by created_at desc, id desc limit 1`;
  if (!mail) throw new Error(`no ${template} e-mail to ${to}`);
  return mail;
}

/** The token at the end of a link (`…/r/<token>`, `…#token=<token>`, `…/invitations/<token>`). */
export function tokenOf(link: string): string {
  const token = /([0-9A-Za-z_-]{43})$/.exec(link)?.[1];
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** The landing token of the newest review request e-mail to `email`. */
export async function requestToken(sql: Sql, email: string): Promise<string> {
  return tokenOf((await newestMail(sql, 'review_request', email)).data.landing_url);
}

/** The tables and columns of schema plaudit, as the catalog lists them. */
export interface Schema {
  /** Whether the release holds the table (and, when named, its column). */
  has(table: string, column?: string): boolean;
}

export async function readSchema(sql: Sql): Promise<Schema> {
  const rows = await sql<{ name: string; columns: string[] }[]>`
    select c.relname as name,
           array(select a.attname::text from pg_attribute a
                  where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
      from pg_class c
     where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p')`;
  const tables = new Map(rows.map((r) => [r.name, new Set(r.columns)]));
  return { has: (table, column) => tables.has(table) && (!column || tables.get(table)!.has(column)) };
}

/** How one organization differs from the others. */
export interface Flavour {
  slug: string;
  /** Its profile's media_moderation: `manual` holds new photos and videos until they are shown. */
  mediaModeration: 'auto' | 'manual';
  /** Whether its erasure also removes the reviewer's words. */
  redactOnErasure: boolean;
  /** Whether its CDN takes the purge (else it answers 503, and the purge waits for its retry). */
  cdnTakesPurges: boolean;
}

/** One organization being filled: its ids, and its steps as each role runs them. */
export interface Org extends Flavour {
  sql: Sql;
  schema: Schema;
  id: string;
  domain: string;
  /** The owner's address, who signs in to the dashboard. */
  owner: string;
  ownerMemberId: string;
  admin: { id: string; key: string };
  /** The actor of calls made with the admin key. */
  keyActor: string;
  /** As the API, for the tenant, acting as `actor` (the admin key unless named). */
  tenant<T>(fn: (tx: Tx) => Promise<T>, actor?: string): Promise<T>;
  publicly: Step;
  worker: Step;
  authenticator: Step;
  /** A client address of its own for each public call (rate limits count per address). */
  nextAddress(): string;
}

export function organization(
  sql: Sql,
  schema: Schema,
  flavour: Flavour,
  ids: { id: string; ownerMemberId: string; admin: { id: string; key: string } },
): Org {
  const keyActor = `api_key:${ids.admin.id}`;
  const domain = `${flavour.slug}.example`;
  let addresses = 0;
  return {
    ...flavour,
    ...ids,
    sql,
    schema,
    domain,
    owner: `owner@${domain}`,
    keyActor,
    tenant: (fn, actor = keyActor) => as(sql, 'plaudit_api', fn, { orgId: ids.id, actor }),
    publicly: (fn) => as(sql, 'plaudit_public', fn),
    worker: (fn) => as(sql, 'plaudit_worker', fn),
    authenticator: (fn) => as(sql, 'plaudit_authenticator', fn),
    nextAddress: () => `198.51.100.${(addresses += 1)}`,
  };
}

/** What a public submission answers. */
export interface Submitted {
  id: string;
  error_code: string | null;
  error_message: string | null;
  verification_status: string;
}

/** Throws on a submission the database refused; answers it otherwise. */
export function accepted(what: string, rows: Submitted[]): Submitted {
  const [r] = rows;
  if (!r || r.error_code) throw new Error(`${what}: ${r?.error_code} ${r?.error_message}`);
  return r;
}
