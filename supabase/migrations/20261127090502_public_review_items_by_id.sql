-- public review items by id: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- The public items of the reviews given, as a JSON array in the order given. Each review is
-- looked up by its id (OFFSET 0 keeps the lookup a subquery per id): joined as a whole, the
-- planner cannot see how few ids a page holds and hashes every review of the table.
create or replace function plaudit.public_review_items(p_ids uuid[])
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select '[' || coalesce(string_agg(x.item, ',' order by i.ord), '') || ']'
    from unnest(p_ids) with ordinality i(id, ord)
    cross join lateral (
      select plaudit.public_review_json(pr, rr, p) as item
        from plaudit.public_reviews pr
        left join plaudit.review_replies rr on rr.review_id = pr.id
        left join plaudit.products p on p.id = pr.product_id
       where pr.id = i.id
      offset 0) x
$$;
comment on function plaudit.public_review_items(uuid[]) is 'The public items of the reviews given, as a JSON array in the order given.';

revoke execute on all functions in schema plaudit from public;
reset role;
