-- product functions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- A GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) is 8, 12, 13 or 14 digits whose last is the check digit:
-- weighting the digits 3, 1, 3, … from the right (the check digit itself weighs 1), the sum is a
-- multiple of 10. Checked here so that a typo never reaches Google's feeds.
create or replace function plaudit.gtin_is_valid(p_gtin text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_gtin !~ '^([0-9]{8}|[0-9]{12,14})$' then false
    else (select sum(substr(p_gtin, length(p_gtin) + 1 - i, 1)::integer * case when i % 2 = 0 then 3 else 1 end)
            from generate_series(1, length(p_gtin)) i) % 10 = 0
  end
$$;
comment on function plaudit.gtin_is_valid(text) is 'True when the text is a GTIN of 8, 12, 13 or 14 digits whose check digit is right.';

-- The products table's check constraint calls it as the role that writes the row.
grant execute on function plaudit.gtin_is_valid(text) to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
