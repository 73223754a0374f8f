import { describe, expect, it } from 'vitest';
import type { Sql } from './client.ts';
import type { ReplicaSet } from './replicas.ts';
import { primaryOnly, readOnReplica, routePublicReads } from './routing.ts';

/** A primary pool and one replica, as names: readOnReplica only hands them to the read. */
function setUp() {
  const primary = { name: 'primary' } as unknown as Sql;
  const replica = { name: 'replica' } as unknown as Sql;
  const downs: Sql[] = [];
  const set = { size: 1, pick: () => replica, markDown: (s: Sql) => downs.push(s) } as unknown as ReplicaSet;
  routePublicReads(primary, set);
  const ran: string[] = [];
  const read = (fail?: unknown) => (db: Sql) => {
    const name = (db as unknown as { name: string }).name;
    ran.push(name);
    if (fail && name === 'replica') throw fail;
    return Promise.resolve(name);
  };
  return { primary, replica, downs, ran, read };
}

const pgError = (code: string) => Object.assign(new Error(code), { severity: 'ERROR', code });

describe('readOnReplica', () => {
  it('reads on the replica that serves', async () => {
    const { primary, read, ran } = setUp();
    expect(await readOnReplica(primary, read())).toBe('replica');
    expect(ran).toEqual(['replica']);
  });

  it('runs a read again on the primary when the replica cannot be reached, and marks it down', async () => {
    const { primary, replica, read, ran, downs } = setUp();
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(await readOnReplica(primary, read(refused))).toBe('primary');
    expect(ran).toEqual(['replica', 'primary']);
    expect(downs).toEqual([replica]);
  });

  it('runs a statement the standby refused as a write, or cancelled for recovery, on the primary', async () => {
    for (const code of ['25006', '40001', '57P03']) {
      const { primary, read, ran } = setUp();
      expect(await readOnReplica(primary, read(pgError(code)))).toBe('primary');
      expect(ran).toEqual(['replica', 'primary']);
    }
  });

  it('answers a statement’s own error as it is, without running it twice', async () => {
    const { primary, read, ran, downs } = setUp();
    await expect(readOnReplica(primary, read(pgError('22P02')))).rejects.toThrow('22P02');
    expect(ran).toEqual(['replica']);
    expect(downs).toEqual([]);
  });

  it('keeps every read of a pinned pool, and of a pool without replicas, on it', async () => {
    const { primary, read, ran } = setUp();
    const pinned = primaryOnly(primary);
    expect(pinned).toBe(primaryOnly(primary));
    expect(await readOnReplica(pinned, read())).toBe('primary');
    const alone = { name: 'alone' } as unknown as Sql;
    expect(await readOnReplica(alone, read())).toBe('alone');
    expect(ran).toEqual(['primary', 'alone']);
  });
});
