-- The moderation trail's chain head, published where others keep copies. The trail is
-- hash-chained (each entry's hash covers the previous one), so whoever controls the database could
-- still rewrite history and recompute the chain: plaudit.verify_moderation_chain would call the
-- rewrite valid. Once a head (the entry count and the last hash) has been seen by someone else,
-- a rewrite of any entry up to it changes the hash at that position, and the earlier head no
-- longer matches. Heads go out on the public profile, in every review.moderated event, with each
-- export, and through the authenticated API, which also checks the chain against a head kept
-- earlier (SECURITY.md).
set role plaudit_owner;

-- {"entries": n, "head": "<hex of the last entry's hash>"}; entries 0 and head null before the
-- first entry.
create function plaudit.moderation_chain_head(p_org_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('entries', coalesce(h.last_seq, 0), 'head', encode(h.last_hash, 'hex'))
    from (select 1) one
    left join plaudit.moderation_chain_heads h on h.org_id = p_org_id
$$;

revoke execute on function plaudit.moderation_chain_head(uuid) from public;

-- The chain of the transaction's tenant: its head, whether it verifies, and, given a head kept
-- earlier (p_entries, p_head), whether today's chain still holds that head at that position.
create function plaudit.moderation_chain_status(p_entries bigint default null, p_head text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  chain record;
  head jsonb;
  kept_hash bytea;
  earlier jsonb := null;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  select * into chain from plaudit.verify_moderation_chain(tenant);
  head := plaudit.moderation_chain_head(tenant);
  if p_entries is not null then
    if p_head is null or p_head !~ '^[0-9a-f]{64}$' then
      raise exception 'head: must be the 64 hexadecimal characters of a chain head' using errcode = 'invalid_parameter_value';
    end if;
    select t.hash into kept_hash from plaudit.moderation_trail t where t.org_id = tenant and t.seq = p_entries;
    earlier := jsonb_build_object(
      'entries', p_entries, 'head', p_head,
      'matches', kept_hash is not null and kept_hash = decode(p_head, 'hex'),
      'problem', case
        when p_entries > (head ->> 'entries')::bigint then
          format('the chain holds %s entries, fewer than the %s of the earlier head: entries were removed', head ->> 'entries', p_entries)
        when kept_hash is null then format('entry %s is missing', p_entries)
        when kept_hash <> decode(p_head, 'hex') then
          format('entry %s no longer has the earlier head''s hash: the trail up to it was rewritten', p_entries)
      end);
  end if;
  return head || jsonb_build_object(
    'valid', chain.valid and coalesce((earlier ->> 'matches')::boolean, true),
    'problem', coalesce(chain.problem, earlier ->> 'problem'),
    'earlier_head', earlier);
end
$$;

revoke execute on function plaudit.moderation_chain_status(bigint, text) from public;
grant execute on function plaudit.moderation_chain_status(bigint, text) to plaudit_api;

-- The public profile carries the head; its version (public_version's, and the head's entry
-- count) moves with it, so a cached profile or embed answer never keeps an old head past a
-- revalidation. Review pages keep public_version: the head is not on them.
create function plaudit.public_profile_version(p_slug text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_version(p_slug) || '.' ||
         coalesce((select h.last_seq from plaudit.moderation_chain_heads h
                    join plaudit.organizations o on o.id = h.org_id where o.slug = p_slug), 0)
$$;

revoke execute on function plaudit.public_profile_version(text) from public;
grant execute on function plaudit.public_profile_version(text) to plaudit_public;

create or replace function plaudit.public_profile(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'version', concat_ws('.', s.version, (extract(epoch from o.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0),
                         coalesce((select h.last_seq from plaudit.moderation_chain_heads h where h.org_id = o.id), 0)),
    'enabled', coalesce(p.enabled, true),
    'slug', o.slug,
    'name', coalesce(p.display_name, o.name),
    'description', p.description,
    'website', coalesce(p.website, o.website),
    'logo_url', p.logo_url,
    'average_rating', case when s.public_count > 0 then round(s.rating_sum::numeric / s.public_count, 2) end,
    'review_count', s.public_count,
    'rating_distribution', json_build_object('1', s.rating_1, '2', s.rating_2, '3', s.rating_3,
                                             '4', s.rating_4, '5', s.rating_5),
    'embed', json_build_object(
      'layout', coalesce(p.embed_layout, 'list'), 'theme', coalesce(p.embed_theme, 'light'),
      'max_reviews', coalesce(p.embed_max_reviews, 10), 'min_rating', coalesce(p.embed_min_rating, 1)),
    'moderation_chain', plaudit.moderation_chain_head(o.id))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  cross join lateral (
    select coalesce(sum(st.version), 0) as version, coalesce(sum(st.public_count), 0) as public_count,
           coalesce(sum(st.rating_sum), 0) as rating_sum,
           coalesce(sum(st.rating_1), 0) as rating_1, coalesce(sum(st.rating_2), 0) as rating_2,
           coalesce(sum(st.rating_3), 0) as rating_3, coalesce(sum(st.rating_4), 0) as rating_4,
           coalesce(sum(st.rating_5), 0) as rating_5
    from plaudit.review_statistics st where st.org_id = o.id
  ) s
  where o.slug = p_slug
$$;

-- review.moderated carries the head that includes its own trail entry: the event's trigger is
-- renamed so that it fires after reviews_record_moderation (triggers fire in name order).
create or replace function plaudit.reviews_emit_changes()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  at text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.emit_event(new.org_id, 'review.moderated', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id,
      'action', case when new.is_hidden then 'hide' else 'unhide' end,
      'is_hidden', new.is_hidden,
      'reason', nullif(current_setting('plaudit.moderation_reason', true), ''),
      'actor', plaudit.current_actor(), 'moderated_at', at,
      'moderation_chain', plaudit.moderation_chain_head(new.org_id)));
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.emit_event(new.org_id, 'review.verified', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id,
      'verification_status', new.verification_status, 'previous_status', old.verification_status,
      'method', new.verification_method, 'reason', new.verification_reason,
      'actor', plaudit.current_actor(), 'verified_at', at));
  end if;
  return null;
end
$$;

alter trigger reviews_emit_changes on plaudit.reviews rename to reviews_signal_changes;

-- Each export keeps the head as of its creation: whoever keeps the file keeps the head.
alter table plaudit.exports
  add column moderation_chain_entries bigint,
  add column moderation_chain_head bytea;

grant select (moderation_chain_entries, moderation_chain_head) on plaudit.exports to plaudit_api;

create function plaudit.exports_note_chain_head()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  select h.last_seq, h.last_hash into new.moderation_chain_entries, new.moderation_chain_head
    from plaudit.moderation_chain_heads h where h.org_id = new.org_id;
  new.moderation_chain_entries := coalesce(new.moderation_chain_entries, 0);
  return new;
end
$$;

revoke execute on function plaudit.exports_note_chain_head() from public;

create trigger exports_note_chain_head
  before insert on plaudit.exports
  for each row execute function plaudit.exports_note_chain_head();

reset role;
