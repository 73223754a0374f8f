import postgres from 'postgres';

/** The test database as its owner: for fixtures and for checking what the API stored. */
export const db = postgres(process.env.TEST_DATABASE_URL!, { max: 2, prepare: false, onnotice: () => {} });

let counter = 0;
export function uniqueSlug(prefix = 'org') {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface Tenant {
  org: { id: string; name: string; slug: string };
  keys: { admin: string; write: string; read: string };
  keyIds: { admin: string; write: string; read: string };
}

/** A fresh organization with one key of each scope, made as the admin command line makes them. */
export async function createTenant(options: { rateLimit?: number } = {}): Promise<Tenant> {
  const slug = uniqueSlug();
  const [org] = await db`
    insert into plaudit.organizations (name, slug) values (${'Org ' + slug}, ${slug})
    returning id, name, slug`;
  const keys: Record<string, string> = {};
  const keyIds: Record<string, string> = {};
  for (const scope of ['admin', 'write', 'read']) {
    const [k] = await db`
      select id, key from plaudit.issue_api_key(${org.id}, ${scope + ' key'}, ${scope}, ${options.rateLimit ?? null})`;
    keys[scope] = k.key;
    keyIds[scope] = k.id;
  }
  return { org: org as Tenant['org'], keys: keys as Tenant['keys'], keyIds: keyIds as Tenant['keyIds'] };
}
