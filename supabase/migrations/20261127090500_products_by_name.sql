-- A business's public catalog page lists its products by name, a page at a time: an index walks
-- them in that order.
set role plaudit_owner;

create index products_org_id_name on plaudit.products (org_id, name, id);

revoke execute on all functions in schema plaudit from public;
reset role;
