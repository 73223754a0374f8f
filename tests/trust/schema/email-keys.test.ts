// An address's key (plaudit.email_key: suppressions, erasures, data requests) is keyed with a
// secret the database made and only its owner reads: the HMAC-SHA256, with signing_secrets'
// `email_keys`, of the unkeyed SHA-256 it was before (so the change that keyed it could re-key
// every stored key from itself; tests/schema/upgrade.test.ts checks the erased addresses' keys
// still match after the upgrade). A dictionary of addresses hashed does not find it, and no
// runtime role reads the secret.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';

describe("an address's key", () => {
  it("is an HMAC with the database's own secret, not a hash a dictionary reverses", async () => {
    const t = await createTenant();
    const address = 'Ada.Lovelace@Example.com';
    const [{ key }] = await db<{ key: Buffer }[]>`select plaudit.email_key(${t.org.id}, ${address}) as key`;
    const unkeyed = createHash('sha256').update(`${t.org.id}:${address.toLowerCase()}`).digest();
    expect(key.equals(unkeyed)).toBe(false);
    const [{ secret }] = await db<{ secret: Buffer }[]>`
      select secret from plaudit.signing_secrets where purpose = 'email_keys'`;
    expect(secret.length).toBe(32);
    expect(key.equals(createHmac('sha256', secret).update(unkeyed).digest())).toBe(true);
    // The same address in lower case, and in another organization.
    const [{ same, elsewhere }] = await db<{ same: boolean; elsewhere: boolean }[]>`
      select plaudit.email_key(${t.org.id}, ${address.toLowerCase()}) = ${key} as same,
             plaudit.email_key(gen_random_uuid(), ${address}) = ${key} as elsewhere`;
    expect({ same, elsewhere }).toEqual({ same: true, elsewhere: false });
  });

  it('is made by the database for the API, whose roles read no secret', async () => {
    const t = await createTenant();
    for (const role of ['plaudit_api', 'plaudit_public', 'plaudit_worker']) {
      await expect(db.begin(async (tx) => {
        await tx.unsafe(`set local role ${role}`);
        await tx`select secret from plaudit.signing_secrets`;
      })).rejects.toThrow('permission denied for table signing_secrets');
    }
    const keys = await db.begin(async (tx) => {
      await tx.unsafe('set local role plaudit_api');
      return await tx<{ key: Buffer }[]>`select plaudit.email_key(${t.org.id}, 'x@example.com') as key`;
    });
    expect(keys[0].key.length).toBe(32);
  });
});
