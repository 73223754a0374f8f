-- The duplicate check's sketch index takes each submission's hashes into its tree at once
-- (fastupdate off): every submission also looks the index up, and a GIN index's pending list is
-- read whole by every lookup, growing until a cleanup (up to 4 MB): at 2,800 pending hashes a
-- lookup took 3 ms instead of 0.3 ms (docs/benchmarks.md, "Review bombing holds and duplicates").
alter index plaudit.review_arrivals_sketch set (fastupdate = off);
