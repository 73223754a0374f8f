-- Signed tokens for the links of review-request e-mails: the open pixel, the click redirect,
-- the landing page and the unsubscribe link. A token is the request id and a MAC of it:
--
--   base64url( uuid (16 bytes) || first 16 bytes of HMAC-SHA256(secret, 'review_request:' || uuid) )
--
-- 43 characters, 128 bits of MAC: unguessable, and checked without any lookup table. The
-- secret is made here, in the database, by gen_random_bytes at migration time, and never leaves
-- it: no role but the owner reads plaudit.signing_secrets, and only the SECURITY DEFINER
-- functions below sign and check. Rotating it (update the row) invalidates every link already
-- sent. The comparison is a double HMAC: both MACs are HMAC'd again with the secret before `=`,
-- so the time the comparison takes says nothing about the expected value (a constant-time
-- comparison in effect, in SQL).
create table plaudit.signing_secrets (
  purpose text primary key check (purpose ~ '^[a-z_]+$'),
  secret bytea not null check (octet_length(secret) >= 32),
  created_at timestamptz not null default now()
);

alter table plaudit.signing_secrets enable row level security;
-- No policy and no grant: only the functions below, as the owner, read it.

insert into plaudit.signing_secrets (purpose, secret)
values ('review_request_links', extensions.gen_random_bytes(32));

create function plaudit.review_request_token(p_request_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select translate(rtrim(encode(
    uuid_send(p_request_id)
      || substring(extensions.hmac(convert_to('review_request:' || p_request_id::text, 'UTF8'), s.secret, 'sha256') from 1 for 16),
    'base64'), '='), '+/', '-_')
  from plaudit.signing_secrets s where s.purpose = 'review_request_links'
$$;

-- The request id a token stands for, or null when it is malformed or its MAC does not match.
create function plaudit.review_request_from_token(p_token text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  raw bytea;
  id uuid;
  k bytea;
  expected bytea;
begin
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    return null;
  end if;
  raw := decode(translate(p_token, '-_', '+/') || '=', 'base64');
  if octet_length(raw) <> 32 then
    return null;
  end if;
  id := encode(substring(raw from 1 for 16), 'hex')::uuid;
  select s.secret into k from plaudit.signing_secrets s where s.purpose = 'review_request_links';
  expected := substring(extensions.hmac(convert_to('review_request:' || id::text, 'UTF8'), k, 'sha256') from 1 for 16);
  if extensions.hmac(substring(raw from 17 for 16), k, 'sha256') = extensions.hmac(expected, k, 'sha256') then
    return id;
  end if;
  return null;
end
$$;

-- The links of a request's e-mails, for the templates.
create function plaudit.review_request_links(p_request_id uuid, p_link_base text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'landing_url', b || '/r/' || t,
    'review_url', b || '/t/c/' || t,
    'rating_urls', (select jsonb_agg(b || '/t/c/' || t || '?rating=' || n order by n) from generate_series(1, 5) n),
    'open_pixel_url', b || '/t/o/' || t || '.gif',
    'unsubscribe_url', b || '/unsubscribe/' || t)
  from (select rtrim(p_link_base, '/') as b, plaudit.review_request_token(p_request_id) as t) x
$$;

revoke execute on function plaudit.review_request_token(uuid),
  plaudit.review_request_from_token(text),
  plaudit.review_request_links(uuid, text)
  from public;
