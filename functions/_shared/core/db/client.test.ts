import { describe, expect, it } from 'vitest';
import { usePreparedStatements } from './client.ts';

describe('usePreparedStatements', () => {
  it('prepares on a direct connection', () => {
    expect(usePreparedStatements('postgresql://u:p@127.0.0.1:5432/db', undefined)).toBe(true);
    expect(usePreparedStatements('postgresql://u:p@db.example.com/db', '')).toBe(true);
  });

  it("does not prepare behind Supabase's transaction pooler (port 6543)", () => {
    expect(usePreparedStatements('postgresql://u.ref:p@aws-0-eu.pooler.supabase.com:6543/postgres', undefined)).toBe(
      false,
    );
  });

  it('follows DATABASE_PREPARE when it is set, and refuses anything but true or false', () => {
    expect(usePreparedStatements('postgresql://u:p@127.0.0.1:5432/db', 'false')).toBe(false);
    expect(usePreparedStatements('postgresql://u:p@pooler:6543/db', 'true')).toBe(true);
    expect(() => usePreparedStatements('postgresql://u:p@127.0.0.1/db', 'yes')).toThrow(
      'DATABASE_PREPARE must be true or false',
    );
  });
});
