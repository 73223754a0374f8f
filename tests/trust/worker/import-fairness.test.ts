// plaudit.run_imports serves waiting imports a batch at a time, the one served longest ago first: a
// large file of one organization (here 200,000 refused rows and 5,000 reviews) takes its turns, and
// another organization's small import completes while it is still running. Driven step by step in
// one transaction (a time budget of 0 is one batch a call), which nobody else sees: no timing.
import { describe, expect, it } from 'vitest';
import { readImport } from '../../../functions/_shared/core/imports/read.ts';
import { createTenant, db } from '../../helpers/db.ts';

const HEADER = 'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n';
const file = (bad: number, good: number, prefix: string) =>
  new TextEncoder().encode(
    HEADER + 'Bad,Nine stars,9,2024-01-01,P1,Pot,Al,\n'.repeat(bad) +
      Array.from({ length: good }, (_, i) => `Good,${prefix} ${i},5,2024-01-01,P1,Pot,Al,\n`).join(''),
  );

describe('plaudit.run_imports', () => {
  it("completes another organization's small import while a large one is still running", async () => {
    const [big, small] = await Promise.all([createTenant(), createTenant()]);
    const orgs = [big.org.id, small.org.id];
    const rollback = new Error('rolled back on purpose');
    await db.begin(async (tx) => {
      const stage = async (orgId: string, bytes: Uint8Array) => {
        const read = readImport(bytes, 'yotpo');
        if (!read.ok) throw new Error(read.message);
        await tx`select set_config('plaudit.org_id', ${orgId}, true)`;
        const [job] = await tx<{ id: string }[]>`
          select id from plaudit.create_import('yotpo', false, ${read.total_rows}, ${tx.json(read.reviews as never)},
                                               ${tx.json(read.rejected as never)}, 'api_key:test',
                                               ${read.rejected_count}, ${read.duplicates})`;
        return job.id;
      };
      const bigId = await stage(big.org.id, file(200_000, 5_000, 'Big'));
      let smallId = '';
      const state = async () =>
        Object.fromEntries(
          (await tx<{ id: string; status: string; imported: number; staged: number }[]>`
            select i.id, i.status, i.imported,
                   (select count(*)::integer from plaudit.import_rows r where r.import_id = i.id) as staged
              from plaudit.imports i where i.id in (${bigId}, ${smallId || bigId})`).map((r) => [r.id, r]),
        );
      const step = async () => await tx`select plaudit.run_imports(0, 2000, ${orgs}::uuid[])`;

      await step(); // the large import's first batch
      let now = await state();
      expect(now[bigId]).toMatchObject({ status: 'processing', imported: 2000, staged: 3000 });
      smallId = await stage(small.org.id, file(0, 17, 'Small')); // arrives while the large one runs

      await step(); // the small import's turn: never served, it goes before the large one's next batch
      now = await state();
      expect(now[smallId]).toMatchObject({ status: 'completed', imported: 17, staged: 0 });
      expect(now[bigId]).toMatchObject({ status: 'processing', imported: 2000, staged: 3000 });

      await step();
      await step();
      now = await state();
      expect(now[bigId]).toMatchObject({ status: 'completed', imported: 5000, staged: 0 });
      const [job] = await tx`
        select rejected_count, jsonb_array_length(rejected) as kept from plaudit.imports where id = ${bigId}`;
      expect(job).toEqual({ rejected_count: 200_000, kept: 100 });
      const order = await tx<{ id: string }[]>`
        select id from plaudit.imports where id in (${bigId}, ${smallId}) order by completed_at`;
      expect(order.map((o) => o.id)).toEqual([smallId, bigId]);
      const events = await tx<{ org_id: string; size: number }[]>`
        select org_id, octet_length(data::text) as size from plaudit.events
         where org_id in (${big.org.id}, ${small.org.id}) and type = 'import.completed'`;
      expect(events).toHaveLength(2);
      for (const e of events) expect(e.size).toBeLessThan(16 * 1024);
      throw rollback;
    }).catch((err) => {
      if (err !== rollback) throw err;
    });
  });
});
