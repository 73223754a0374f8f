-- Photos and videos on reviews: the reviewer's upload token, the checks before a file is
-- processed, adding the stored item, and hiding or showing it.

-- How many photos and videos a review may have: the one number both checks below read, inlined
-- where they read it. The API's is core/media/limits.ts (MAX_MEDIA_PER_REVIEW); a test keeps the two equal.
create or replace function plaudit.media_per_review_limit()
returns integer
language sql
immutable
parallel safe
as $$ select 6 $$;
comment on function plaudit.media_per_review_limit() is 'How many photos and videos a review may have.';

-- How long a reviewer's upload token works. The API's is core/media/limits.ts
-- (UPLOAD_TOKEN_HOURS, the expiry it answers a bot's unstored review); a test keeps the two equal.
create or replace function plaudit.media_upload_token_lifetime()
returns interval
language sql
immutable
parallel safe
as $$ select interval '24 hours' $$;
comment on function plaudit.media_upload_token_lifetime() is 'How long a reviewer''s upload token works.';

-- Gives the review just submitted its upload token (its SHA-256), valid for
-- plaudit.media_upload_token_lifetime(): only in the
-- transaction that created the review (its created_at is this transaction's now()), and once.
-- Answers when it expires, or null when nothing was issued (a bot's unstored review).
-- PL/pgSQL with its plan kept for the session, as plaudit.submit_review's, beside which the API calls
-- it: as an SQL function its insert was planned at every submission.
create or replace function plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea)
returns timestamptz
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  expires timestamptz;
begin
  insert into plaudit.media_upload_tokens (review_id, org_id, token_hash, expires_at)
  select r.id, r.org_id, p_token_hash, now() + plaudit.media_upload_token_lifetime()
    from plaudit.reviews r
   where r.id = p_review_id and r.created_at = now()
  on conflict (review_id) do nothing
  returning expires_at into expires;
  return expires;
end
$$;
comment on function plaudit.issue_media_upload_token(uuid,bytea) is 'Issues the upload token of a review created in this transaction, once; answers its expiry.';
grant execute on function plaudit.issue_media_upload_token(uuid,bytea) to plaudit_public;

-- Who may add media to a review: the holder of its unexpired upload token (p_token_hash), or
-- the caller's tenant (an organization's write key: plaudit.current_org_id()). Answers the
-- review's organization, or the refusal: invalid_token (no such token, or expired),
-- wrong_review (a token of another review), not_found (no such review for this tenant).
create or replace function plaudit.review_media_access(
  p_review_id uuid, p_token_hash bytea, out org_id uuid, out refusal text
)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  t plaudit.media_upload_tokens;
begin
  if p_token_hash is not null then
    select * into t from plaudit.media_upload_tokens x where x.token_hash = p_token_hash and x.expires_at > now();
    if not found then
      refusal := 'invalid_token';
    elsif t.review_id <> p_review_id then
      refusal := 'wrong_review';
    else
      org_id := t.org_id;
    end if;
    return;
  end if;
  select r.org_id into org_id from plaudit.reviews r
   where r.id = p_review_id and r.org_id = plaudit.current_org_id();
  if org_id is null then
    refusal := 'not_found';
  end if;
end
$$;
comment on function plaudit.review_media_access(uuid,bytea) is 'Whether the upload token or the caller''s tenant may add media to a review: its organization, or why not.';

-- One organization's media item as its Review shows it (with is_hidden), or null.
create or replace function plaudit.review_media_item_json(p_media_id uuid)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select (plaudit.review_media_json(m.review_id, false)::json -> (m.position - 1))::text
    from plaudit.review_media m
   where m.id = p_media_id
$$;
comment on function plaudit.review_media_item_json(uuid) is 'One media item as the organization''s Review shows it.';

-- The checks before an upload is read and processed, cheap and in one round trip: the address's
-- and the review's rate limits (p_address_bucket, p_address_limit; p_review_limit a minute), who
-- may upload, and room for one more (plaudit.media_per_review_limit()). Answers the review's organization, or the
-- refusal: as review_media_access, or rate_limited, review_rate_limited, too_many.
create or replace function plaudit.check_review_media_upload(
  p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer,
  out refusal text, out org_id uuid, out rate_remaining integer, out rate_reset bigint
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  access record;
  rate record;
begin
  select * into rate from plaudit.hit_rate_limit(p_address_bucket, p_address_limit);
  rate_remaining := rate.remaining;
  rate_reset := rate.reset_at;
  if not rate.allowed then
    refusal := 'rate_limited';
    return;
  end if;
  select * into access from plaudit.review_media_access(p_review_id, p_token_hash);
  if access.refusal is not null then
    refusal := access.refusal;
  elsif not (select h.allowed from plaudit.hit_rate_limit('media-review:' || p_review_id::text, p_review_limit) h) then
    refusal := 'review_rate_limited';
  elsif (select count(*) from plaudit.review_media m where m.review_id = p_review_id)
        >= plaudit.media_per_review_limit() then
    refusal := 'too_many';
  else
    org_id := access.org_id;
  end if;
end
$$;
comment on function plaudit.check_review_media_upload(uuid,bytea,text,integer,integer) is 'The rate limits, access and count checks before an upload is read and processed; answers the review''s organization.';
grant execute on function plaudit.check_review_media_upload(uuid,bytea,text,integer,integer) to plaudit_api, plaudit_public;

-- Adds a stored file to a review, checking access again under the review's lock (so that two
-- uploads at once cannot pass plaudit.media_per_review_limit()): hidden at once when the organization moderates
-- media by hand. The same bytes twice answer the first item (created false); a full review
-- answers refusal too_many, and the caller removes the files it stored.
create or replace function plaudit.add_review_media(
  p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text,
  p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text,
  p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea,
  out refusal text, out created boolean, out item text
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  access record;
  taken integer;
  held boolean;
begin
  select * into access from plaudit.review_media_access(p_review_id, p_token_hash);
  if access.refusal is not null then
    refusal := access.refusal;
    return;
  end if;
  perform 1 from plaudit.reviews r where r.id = p_review_id for update;
  item := (select plaudit.review_media_item_json(m.id) from plaudit.review_media m
            where m.review_id = p_review_id and m.sha256 = p_sha256);
  if item is not null then
    created := false;
    return;
  end if;
  select count(*) into taken from plaudit.review_media m where m.review_id = p_review_id;
  if taken >= plaudit.media_per_review_limit() then
    refusal := 'too_many';
    return;
  end if;
  held := coalesce((select p.media_moderation = 'manual' from plaudit.public_profiles p where p.org_id = access.org_id), false);
  insert into plaudit.review_media (id, org_id, review_id, type, content_type, storage_key, thumbnail_key, url,
                                    thumbnail_url, width, height, bytes, sha256, is_hidden, hidden_reason, position)
  values (p_id, access.org_id, p_review_id, p_type, p_content_type, p_storage_key, p_thumbnail_key, p_url,
          p_thumbnail_url, p_width, p_height, p_bytes, p_sha256, held,
          case when held then 'Waiting for moderation' end,
          (select coalesce(max(m.position), 0) + 1 from plaudit.review_media m where m.review_id = p_review_id));
  if not held then
    -- Public answers show the item: their version (and ETags) move with it.
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(access.org_id)));
  end if;
  created := true;
  item := plaudit.review_media_item_json(p_id);
end
$$;
comment on function plaudit.add_review_media(uuid,bytea,uuid,text,text,text,text,text,text,integer,integer,bigint,bytea) is 'Adds a stored photo or video to a review, up to its limit, once per content; hidden when media are moderated by hand.';
grant execute on function plaudit.add_review_media(uuid,bytea,uuid,text,text,text,text,text,text,integer,integer,bigint,bytea) to plaudit_api, plaudit_public;

-- What the public may read of a stored file (the media route of local storage): its content
-- type, when its item is visible on a public review of an enabled profile; else null (404).
create or replace function plaudit.public_media_file(p_storage_key text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case when m.storage_key = p_storage_key then m.content_type else 'image/jpeg' end
    from plaudit.review_media m
    join plaudit.public_reviews pr on pr.id = m.review_id
    left join plaudit.public_profiles p on p.org_id = m.org_id
   where (m.storage_key = p_storage_key or m.thumbnail_key = p_storage_key)
     and not m.is_hidden and coalesce(p.enabled, true)
$$;
comment on function plaudit.public_media_file(text) is 'The content type of a stored media file the public may read, or null.';
grant execute on function plaudit.public_media_file(text) to plaudit_public;

-- Hides or shows one photo or video of a review of the caller's tenant, on behalf of p_actor:
-- a trail entry (hide_media / unhide_media, its reason naming the item), review.moderated with
-- the item, and a new public version (the public pages change). Hiding a hidden item, or showing
-- a visible one, is a conflict.
create or replace function plaudit.moderate_review_media(
  p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text
)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  hide boolean := p_action = 'hide';
  item plaudit.review_media;
  reviewed plaudit.reviews;
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  select * into item from plaudit.review_media m
   where m.id = p_media_id and m.review_id = p_review_id and m.org_id = tenant
     for update;
  if item.id is null then
    raise exception 'Media not found' using errcode = 'no_data_found';
  end if;
  if item.is_hidden = hide then
    raise exception '%', case when hide then 'Media is already hidden' else 'Media is not hidden' end
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  update plaudit.review_media m set is_hidden = hide, hidden_reason = case when hide then p_reason end
   where m.id = item.id;
  perform plaudit.append_moderation_entry(tenant, p_review_id, case when hide then 'hide_media' else 'unhide_media' end,
                                          'media ' || item.id::text || ': ' || p_reason, p_actor);
  select * into reviewed from plaudit.reviews r where r.id = p_review_id;
  perform plaudit.emit_event(tenant, 'review.moderated', jsonb_build_object(
    'id', reviewed.id, 'form_id', reviewed.form_id,
    'product', plaudit.review_product_json(reviewed.product_id)::jsonb,
    'action', case when hide then 'hide_media' else 'unhide_media' end,
    'is_hidden', reviewed.is_hidden,
    'media', jsonb_build_object('id', item.id, 'type', item.type, 'is_hidden', hide),
    'reason', p_reason, 'actor', p_actor,
    'moderated_at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'moderation_chain', plaudit.moderation_chain_head(tenant)));
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
end
$$;
comment on function plaudit.moderate_review_media(uuid,uuid,text,text,text) is 'Hides or shows a photo or video of a review of the caller''s tenant, with its trail entry and review.moderated.';
grant execute on function plaudit.moderate_review_media(uuid,uuid,text,text,text) to plaudit_api;

-- The trail's actions of media moderation.
insert into plaudit.trail_actions (action, description) values
  ('hide_media', 'A photo or video of a review was hidden.'),
  ('unhide_media', 'A hidden photo or video was shown again.')
on conflict (action) do update set description = excluded.description;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own review media"
  on plaudit.review_media for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.review_media to plaudit_api;

-- Whether a review has media the public may see: one of its photos or videos not hidden (the
-- has_media filter of the public feeds; their totals count it over this same expression).
create or replace function plaudit.review_has_public_media(p_review_id uuid)
returns boolean
language sql
stable
parallel safe
as $$
  select exists (select 1 from plaudit.review_media m where m.review_id = p_review_id and not m.is_hidden)
$$;
comment on function plaudit.review_has_public_media(uuid) is 'Whether a review has a photo or video the public may see.';
