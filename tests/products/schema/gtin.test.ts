// The dashboard checks a GTIN's check digit before a catalog is sent; the database decides it
// (plaudit.gtin_is_valid). Both must give the same answer, for every length and digit.
import { describe, expect, it } from 'vitest';
import { gtinIsValid } from '../../../dashboard/src/screens/products/fields.ts';
import { db } from '../../helpers/db.ts';

/** Numbers of each length around the valid ones: every last digit of a few prefixes, and other lengths. */
function samples(): string[] {
  const out = ['', '0', '12345', '0000000000', '4006381333931', '4006381333932', '10012345678902'];
  let seed = 7;
  const digit = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 10;
  for (const length of [7, 8, 9, 11, 12, 13, 14, 15]) {
    for (let n = 0; n < 6; n++) {
      const prefix = Array.from({ length: length - 1 }, digit).join('');
      for (let last = 0; last < 10; last++) out.push(`${prefix}${last}`);
    }
  }
  return out;
}

describe("the dashboard's GTIN check", () => {
  it('agrees with plaudit.gtin_is_valid on every sample', async () => {
    const gtins = samples();
    const rows = await db<{ gtin: string; valid: boolean | null }[]>`
      select gtin, coalesce(plaudit.gtin_is_valid(gtin), false) as valid from unnest(${gtins}::text[]) as gtin`;
    const database = new Map(rows.map((r) => [r.gtin, r.valid]));
    // One valid number per prefix of a valid length (8, 12, 13, 14), and the known valid ones.
    expect(gtins.filter((g) => database.get(g)).length).toBe(26);
    expect(gtins.filter((g) => gtinIsValid(g) !== database.get(g))).toEqual([]);
  });
});
