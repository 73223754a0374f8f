-- events stamped when written: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Writes an event in the transaction of the change it announces, so an event exists if and only if
-- its change committed; the notification reaches the worker at commit.
create or replace function plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_id uuid;
begin
  -- Stamped when written, not when its transaction began: a long transaction (the worker's export
  -- run takes jobs for up to two seconds) must not date an event before the changes it follows.
  insert into plaudit.events (org_id, type, data, created_at) values (p_org_id, p_type, p_data, clock_timestamp())
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'event');
  return new_id;
end
$$;
comment on function plaudit.emit_event(uuid,text,jsonb) is 'Writes an event to the outbox in the caller''s transaction and wakes the worker; answers the event''s id.';

revoke execute on all functions in schema plaudit from public;
reset role;
