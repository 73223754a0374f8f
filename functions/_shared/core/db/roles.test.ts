import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsPublic } from './roles.ts';

describe.skipIf(!process.env.TEST_API_DATABASE_URL)('runAsPublic', () => {
  const sql = postgres(process.env.TEST_API_DATABASE_URL ?? 'postgres://unused', {
    max: 1,
    prepare: false,
    onnotice: () => {},
  });
  afterAll(() => sql.end());

  it('runs the statement as plaudit_public, and the role does not outlive it on the connection', async () => {
    const [row] = await runAsPublic(sql, (tx) => tx<{ who: string }[]>`select current_user as who`);
    expect(row.who).toBe('plaudit_public');
    const [after] = await sql<{ who: string }[]>`select current_user as who`;
    expect(after.who).toBe('plaudit_authenticator');
  });

  it("passes a failing statement's error on and leaves the connection usable", async () => {
    await expect(runAsPublic(sql, (tx) => tx`select * from plaudit.reviews`)).rejects.toThrow(/permission denied/);
    const [after] = await sql<{ ok: number }[]>`select 1 as ok`;
    expect(after.ok).toBe(1);
  });
});
