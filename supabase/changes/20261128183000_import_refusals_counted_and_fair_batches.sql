-- Imports count every refused row and keep the first hundred (their answer, their event and their
-- list stay small whatever the file holds), and the worker serves waiting imports a batch at a time,
-- the one served longest ago first, so one organization's large file never holds up another's.
alter table plaudit.imports
  add column rejected_count integer not null default 0 constraint imports_rejected_count_check check (rejected_count >= 0),
  add column progressed_at timestamp with time zone;

comment on column plaudit.imports.rejected is 'The first hundred refused rows, [{"row","message"}], in file order.';
comment on column plaudit.imports.rejected_count is 'Every refused row, those kept in rejected and the rest.';
comment on column plaudit.imports.progressed_at is 'When the worker last applied a batch of it: the next batch goes to the import served longest ago.';

update plaudit.imports
   set rejected_count = jsonb_array_length(rejected),
       rejected = (select coalesce(jsonb_agg(r.x order by r.n), '[]')
                     from jsonb_array_elements(rejected) with ordinality r(x, n) where r.n <= 100)
 where jsonb_array_length(rejected) > 0;
