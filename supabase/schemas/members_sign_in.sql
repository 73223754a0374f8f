-- Members are people who sign in. Passwordless sign-in by e-mail (one mail carries a one-time link
-- and a 6-digit code) opens a session; a session reaches the same tenant context and row-level
-- security as an API key: the database authenticates either credential, and the API then runs
-- the request as plaudit_api with the path's organization, when the session's person is a member
-- of it (owner and admin act with the admin scope, member with write). Team changes (a member's
-- role, removing a member) keep at least one owner in every organization.

-- The hash of a challenge's code: salted with the challenge, so equal codes hash apart.
create or replace function plaudit.sign_in_code_hash(p_challenge_id uuid, p_code text)
returns bytea
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select sha256(convert_to(p_challenge_id::text || ':' || coalesce(p_code, ''), 'UTF8'))
$$;
comment on function plaudit.sign_in_code_hash(uuid,text) is 'The hash of a challenge''s code: salted with the challenge, so equal codes hash apart.';

-- Six decimal digits from the strong random source (four random bytes modulo a million).
create or replace function plaudit.random_sign_in_code()
returns text
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$
  select lpad(((('x' || encode(extensions.gen_random_bytes(4), 'hex'))::bit(32)::bigint) % 1000000)::text, 6, '0')
$$;
comment on function plaudit.random_sign_in_code() is 'Six decimal digits from the strong random source (four random bytes modulo a million).';

-- How long a session may sit unused.
create or replace function plaudit.session_idle_timeout()
returns interval
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select interval '7 days'
$$;
comment on function plaudit.session_idle_timeout() is 'How long a session may sit unused: 7 days.';

-- The live session a token hash stands for (none when unknown, ended, idle too long or past
-- its absolute expiry).
create or replace function plaudit.live_session(p_token_hash bytea)
returns setof plaudit.sessions
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
  select * from plaudit.sessions s
   where s.token_hash = p_token_hash and s.ended_at is null and s.expires_at > now()
     and s.last_seen_at > now() - plaudit.session_idle_timeout()
$$;
comment on function plaudit.live_session(bytea) is 'The live session a token hash stands for (none when unknown, ended, idle too long or past its absolute expiry).';

-- A request's session: the person, their role in the path's organization (null columns when they
-- are not a member of it), the scope that role acts with, and the session's per-minute count,
-- shaped as plaudit.authenticate's row so that the API treats both credentials alike. Notes
-- when the session was last used, at most once a minute.
create or replace function plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint,
  session_id uuid, member_id uuid, member_role text, email text
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  s record;
  hit record;
begin
  -- One lookup for the session and the membership (this runs on every dashboard request).
  select ss.id, ss.email, ss.last_seen_at, mm.id as member_id, mm.role into s
    from plaudit.sessions ss
    left join plaudit.members mm on mm.org_id = p_org_id and lower(mm.email) = lower(ss.email)
   where ss.token_hash = p_token_hash and ss.ended_at is null and ss.expires_at > now()
     and ss.last_seen_at > now() - plaudit.session_idle_timeout();
  if not found then
    return;
  end if;
  rate_limit := p_default_limit;
  select * into hit from plaudit.hit_rate_limit('session:' || s.id, rate_limit);
  if s.last_seen_at < now() - interval '1 minute' then
    update plaudit.sessions set last_seen_at = now() where id = s.id;
  end if;
  if s.member_id is not null then
    org_id := p_org_id;
    scope := case s.role when 'member' then 'write' else 'admin' end;
  end if;
  allowed := hit.allowed;
  remaining := hit.remaining;
  reset_at := hit.reset_at;
  session_id := s.id;
  member_id := s.member_id;
  member_role := s.role;
  email := s.email;
  return next;
end
$$;
comment on function plaudit.authenticate_session(bytea,uuid,integer) is 'Authenticates a session for an organization, in plaudit.authenticate''s row with the person and their role.';
grant execute on function plaudit.authenticate_session(bytea,uuid,integer) to plaudit_authenticator;

-- What the dashboard knows of its session: the person and every organization they belong to.
create or replace function plaudit.session_summary(p_token_hash bytea)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'email', s.email,
    'name', (select m.name from plaudit.members m where lower(m.email) = lower(s.email) and m.name is not null
              order by m.created_at limit 1),
    'expires_at', s.expires_at,
    'idle_expires_at', least(s.expires_at, greatest(s.last_seen_at, now() - interval '1 minute') + plaudit.session_idle_timeout()),
    'organizations', coalesce((
      select json_agg(json_build_object('id', o.id, 'name', o.name, 'slug', o.slug, 'role', m.role,
                                        'scope', case m.role when 'member' then 'write' else 'admin' end)
                      order by o.name, o.id)
        from plaudit.members m join plaudit.organizations o on o.id = m.org_id
       where lower(m.email) = lower(s.email)), '[]'::json))
  from plaudit.live_session(p_token_hash) s
$$;
comment on function plaudit.session_summary(bytea) is 'What the dashboard knows of its session: the person and every organization they belong to.';
grant execute on function plaudit.session_summary(bytea) to plaudit_authenticator;

-- Signs out: this session, or every session of its person.
create or replace function plaudit.end_session(p_token_hash bytea, p_everywhere boolean)
returns integer
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  with me as (select * from plaudit.live_session(p_token_hash)),
  ended as (
    update plaudit.sessions s set ended_at = now()
      from me
     where s.ended_at is null
       and (s.id = me.id or (p_everywhere and lower(s.email) = lower(me.email)))
    returning 1
  )
  select count(*)::integer from ended
$$;
comment on function plaudit.end_session(bytea,boolean) is 'Signs out: this session, or every session of its person; answers how many ended.';
grant execute on function plaudit.end_session(bytea,boolean) to plaudit_authenticator;

-- As plaudit.api_key_for_read, for a session: the path's organization when its person is a
-- member of it, the scope of their role, and whether the session has requests left this minute.
create or replace function plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer)
returns table (org_id uuid, scope text, within_limit boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
  select m.org_id, case m.role when 'member' then 'write' else 'admin' end,
         coalesce((select c.hits from plaudit.rate_limit_counters c
                    where c.bucket = 'session:' || s.id and c.window_start = date_trunc('minute', now())), 0)
         < p_rate_limit
    from plaudit.live_session(p_token_hash) s
    join plaudit.members m on m.org_id = p_org_id and lower(m.email) = lower(s.email)
$$;
comment on function plaudit.session_for_read(bytea,uuid,integer) is 'As plaudit.api_key_for_read, for a session: its person''s organization and scope, and whether requests are left this minute.';
grant execute on function plaudit.session_for_read(bytea,uuid,integer) to plaudit_authenticator;

-- plaudit.authenticate's row for a key, else plaudit.authenticate_session's for a session.
create or replace function plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
begin
  return query select * from plaudit.authenticate(p_hash, p_default_limit);
  if not found then
    return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at
                   from plaudit.authenticate_session(p_hash, p_org_id, p_default_limit) a;
  end if;
end
$$;
comment on function plaudit.authenticate_credential(bytea,uuid,integer) is 'Authenticates a key or else a session: plaudit.authenticate''s row, else plaudit.authenticate_session''s.';
grant execute on function plaudit.authenticate_credential(bytea,uuid,integer) to plaudit_authenticator;

-- ============================================================================================
-- the sign-in e-mail
-- ============================================================================================
-- Asks for a sign-in mail. Counts the request against the caller's address (p_client_limit a
-- minute) and the e-mail address (3 a minute; whether or not the address belongs to anyone, so that a refusal tells
-- nothing), then, when the address belongs to a member and has had fewer than ten mails in the
-- last hour, makes a challenge and queues the mail: the link (`<base>/app/sign-in#token=…`, the
-- token in the fragment so that it stays out of server logs and Referer headers) and the code.
-- Answers 'rate_limited', 'unknown', 'throttled' or 'sent'; the API answers the last three
-- alike. The mail goes out on behalf of the organization the person joined first.
create or replace function plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer default 10)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  address text := lower(btrim(coalesce(p_email, '')));
  first_org uuid;
  challenge_id uuid := gen_random_uuid();
  token text;
  code text;
  by_client record;
  by_address record;
begin
  select * into by_client from plaudit.hit_rate_limit('sign-in:client:' || encode(sha256(convert_to(coalesce(p_client, ''), 'UTF8')), 'hex'), p_client_limit);
  select * into by_address from plaudit.hit_rate_limit('sign-in:address:' || encode(sha256(convert_to(address, 'UTF8')), 'hex'), 3);
  if not by_client.allowed or not by_address.allowed then
    return 'rate_limited';
  end if;
  select m.org_id into first_org from plaudit.members m
   where lower(m.email) = address order by m.created_at, m.id limit 1;
  if not found then
    return 'unknown';
  end if;
  if (select count(*) from plaudit.sign_in_challenges c
       where lower(c.email) = address and c.created_at > now() - interval '1 hour') >= 10 then
    return 'throttled';
  end if;
  token := plaudit.random_base62(43);
  code := plaudit.random_sign_in_code();
  insert into plaudit.sign_in_challenges as c (id, email, token_hash, code_hash)
  values (challenge_id, address, sha256(convert_to(token, 'UTF8')), plaudit.sign_in_code_hash(challenge_id, code));
  perform plaudit.enqueue_email(first_org, address, 'sign_in',
    jsonb_build_object('link', rtrim(p_link_base, '/') || '/app/sign-in#token=' || token, 'code', code,
                       'expires_at', to_char((now() + interval '15 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
    'en', 'sign_in:' || challenge_id);
  return 'sent';
end
$$;
comment on function plaudit.request_sign_in(text,text,text,integer) is 'Asks for a sign-in mail to a member''s address, rate-limited; answers rate_limited, unknown, throttled or sent.';
grant execute on function plaudit.request_sign_in(text,text,text,integer) to plaudit_authenticator;

-- Signs in with a mail's link token, or with its address and code (the newest open challenge of
-- the address; five wrong codes lock it). Answers the outcome ('signed_in', 'invalid', 'used',
-- 'expired', 'locked') and, when signed in, the new session's token (shown once: only its hash
-- is kept). Signing in uses up every open challenge of the address.
create or replace function plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text)
returns table (outcome text, session_token text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  ch plaudit.sign_in_challenges;
  new_token text;
begin
  if p_token is not null then
    select * into ch from plaudit.sign_in_challenges c
     where c.token_hash = sha256(convert_to(p_token, 'UTF8')) for update;
  else
    select * into ch from plaudit.sign_in_challenges c
     where lower(c.email) = lower(btrim(coalesce(p_email, ''))) and c.used_at is null and c.expires_at > now()
     order by c.created_at desc, c.id desc limit 1 for update;
  end if;
  if not found then
    outcome := 'invalid';
  elsif ch.used_at is not null then
    outcome := 'used';
  elsif ch.expires_at <= now() then
    outcome := 'expired';
  elsif ch.failed_attempts >= 5 then
    outcome := 'locked';
  elsif p_token is null and ch.code_hash <> plaudit.sign_in_code_hash(ch.id, p_code) then
    update plaudit.sign_in_challenges set failed_attempts = failed_attempts + 1 where id = ch.id;
    outcome := case when ch.failed_attempts + 1 >= 5 then 'locked' else 'invalid' end;
  elsif not exists (select from plaudit.members m where lower(m.email) = lower(ch.email)) then
    outcome := 'invalid';
  else
    update plaudit.sign_in_challenges c set used_at = now()
     where lower(c.email) = lower(ch.email) and c.used_at is null;
    new_token := plaudit.random_base62(43);
    insert into plaudit.sessions (email, token_hash, user_agent)
    values (ch.email, sha256(convert_to(new_token, 'UTF8')), left(p_user_agent, 200));
    outcome := 'signed_in';
    session_token := new_token;
  end if;
  return next;
end
$$;
comment on function plaudit.verify_sign_in(text,text,text,text) is 'Signs in with a mail''s link token, or address and code; answers the outcome and the new session''s token.';
grant execute on function plaudit.verify_sign_in(text,text,text,text) to plaudit_authenticator;

-- ============================================================================================
-- self-service sign-up
-- ============================================================================================
-- Creates an organization with its person as the owner (when the operator opens sign-up; off by
-- default), then sends them a sign-in mail. Raises unique_violation for a slug in use.
create or replace function plaudit.sign_up(
  p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer default 10
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_org uuid;
  hit record;
begin
  select * into hit from plaudit.hit_rate_limit('sign-up:client:' || encode(sha256(convert_to(coalesce(p_client, ''), 'UTF8')), 'hex'), 3);
  if not hit.allowed then
    return 'rate_limited';
  end if;
  begin
    insert into plaudit.organizations (name, slug) values (p_org_name, p_slug) returning id into new_org;
  exception when unique_violation then
    raise unique_violation using message = 'slug: is already taken';
  end;
  insert into plaudit.members (org_id, email, name, role)
  values (new_org, lower(btrim(p_email)), nullif(btrim(coalesce(p_name, '')), ''), 'owner');
  return plaudit.request_sign_in(p_email, p_client, p_link_base, p_client_limit);
end
$$;
comment on function plaudit.sign_up(text,text,text,text,text,text,integer) is 'Creates an organization with its person as the owner, then sends them a sign-in mail.';
grant execute on function plaudit.sign_up(text,text,text,text,text,text,integer) to plaudit_authenticator;

-- ============================================================================================
-- team changes
-- ============================================================================================
-- An organization keeps at least one owner: demoting or removing its last owner is refused. The
-- other owners' rows are locked first, so two owners demoting each other at once cannot both
-- succeed. Deleting the organization itself (its members go with it) is not a team change.
create or replace function plaudit.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner') then
    return coalesce(new, old);
  end if;
  if not exists (select from plaudit.organizations o where o.id = old.org_id) then
    return old;
  end if;
  perform 1 from plaudit.members m where m.org_id = old.org_id and m.role = 'owner' and m.id <> old.id for update;
  if not exists (select from plaudit.members m where m.org_id = old.org_id and m.role = 'owner' and m.id <> old.id) then
    raise exception 'An organization keeps at least one owner: make another member owner first'
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  return coalesce(new, old);
end
$$;
comment on function plaudit.keep_an_owner() is 'An organization keeps at least one owner: demoting or removing its last owner is refused.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger members_keep_an_owner
  before update of role or delete on plaudit.members
  for each row execute function plaudit.keep_an_owner();
