-- media moderation functions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

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

grant execute on function plaudit.moderate_review_media(uuid, uuid, text, text, text) to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
