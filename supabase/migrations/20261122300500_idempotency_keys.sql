-- Idempotency-Key for bulk review requests: the first successful answer is stored with the key,
-- per organization, in the transaction that made it; a repeated call with the same key answers
-- it again without doing anything. A call that failed stored nothing (its transaction rolled
-- back), so it can be retried with the same key. Keys are kept 24 hours.
create table plaudit.idempotency_keys (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  key text not null check (char_length(key) between 1 and 255),
  route text not null check (char_length(route) <= 200),
  -- SHA-256 of the request body: the same key with another body is refused.
  request_hash bytea not null check (octet_length(request_hash) = 32),
  status_code integer,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (org_id, key)
);

create index idempotency_keys_org_id_created_at on plaudit.idempotency_keys (org_id, created_at);

alter table plaudit.idempotency_keys enable row level security;

create policy "Tenants can read their own idempotency keys"
  on plaudit.idempotency_keys for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can record their own idempotency keys"
  on plaudit.idempotency_keys for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can store the answers of their own idempotency keys"
  on plaudit.idempotency_keys for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

grant select on plaudit.idempotency_keys to plaudit_api;
grant insert (org_id, key, route, request_hash) on plaudit.idempotency_keys to plaudit_api;
grant update (status_code, response) on plaudit.idempotency_keys to plaudit_api;
