-- What an e-mailed verification link would do, without doing it: the hosted page that the link
-- opens says "confirm", "already used", "expired" or "not valid" before anyone presses its button
-- (link scanners open every link of a message; only the button's POST verifies).
set role plaudit_owner;

create function plaudit.verification_link_state(p_token text)
returns table (state text, org_name text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
           when t.id is null then 'invalid'
           when t.used_at is not null then 'already_used'
           when t.expires_at <= now() then 'expired'
           when r.verification_status <> 'pending' then 'not_pending'
           else 'pending'
         end,
         o.name
    from (select 1) one
    left join plaudit.review_verification_tokens t
      on t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    left join plaudit.reviews r on r.id = t.review_id
    left join plaudit.organizations o on o.id = r.org_id
$$;

revoke execute on function plaudit.verification_link_state(text) from public;
grant execute on function plaudit.verification_link_state(text) to plaudit_public;

reset role;
