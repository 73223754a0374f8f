-- Photos and videos on reviews: the stored items of each review, the reviewers' upload tokens, and
-- the public profile's setting that holds new media until the business shows them.
set role plaudit_owner;

-- One photo or video of a review, in upload order (position 1–6). The files live in the media
-- storage (local disk or S3) under storage_key and thumbnail_key; url and thumbnail_url are where
-- the public reads them. content_type is what was stored (images are re-encoded, videos kept as
-- sent); sha256 is of the bytes as uploaded, so a repeated upload finds the item it already made.
create table plaudit.review_media (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id),
  review_id uuid not null references plaudit.reviews (id),
  type text not null check (type in ('image', 'video')),
  content_type text not null
    check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm')),
  storage_key text not null unique check (char_length(storage_key) between 1 and 300),
  thumbnail_key text unique check (char_length(thumbnail_key) between 1 and 300),
  url text not null check (char_length(url) between 1 and 2048),
  thumbnail_url text check (char_length(thumbnail_url) between 1 and 2048),
  width integer check (width between 1 and 100000),
  height integer check (height between 1 and 100000),
  bytes bigint not null check (bytes between 1 and 104857600),
  sha256 bytea not null check (octet_length(sha256) = 32),
  is_hidden boolean not null default false,
  hidden_reason text check (char_length(hidden_reason) between 1 and 1000),
  position integer not null check (position between 1 and 6),
  created_at timestamptz not null default now(),
  unique (review_id, position),
  unique (review_id, sha256),
  check (type = 'video' or (thumbnail_key is not null and thumbnail_url is not null and width is not null
                            and height is not null))
);
comment on table plaudit.review_media is 'The photos and videos of reviews, in upload order: where their files are stored, their size and whether they are hidden.';
create index review_media_org_id on plaudit.review_media (org_id);

alter table plaudit.review_media enable row level security;

create policy "Tenants can read their own review media"
  on plaudit.review_media for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- A visible item coming, going or changing changes the public pages (docs/scaling.md).
create trigger review_media_purge_cdn
  after insert or update or delete on plaudit.review_media
  for each row execute function plaudit.cdn_purge_on_change();

-- Items are added and moderated only through plaudit.add_review_media and
-- plaudit.moderate_review_media, which check the tenant or the upload token.
grant select on plaudit.review_media to plaudit_api;

-- A reviewer's right to add media to the review just submitted: one token per review, kept as its
-- SHA-256 only, valid 24 hours.
create table plaudit.media_upload_tokens (
  review_id uuid primary key references plaudit.reviews (id),
  org_id uuid not null references plaudit.organizations (id),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
comment on table plaudit.media_upload_tokens is 'Upload tokens of reviewers (their SHA-256 only): each lets its review take media for 24 hours.';
create index media_upload_tokens_org_id on plaudit.media_upload_tokens (org_id);

-- Only the SECURITY DEFINER functions of the media read or write it; tenants see nothing.
alter table plaudit.media_upload_tokens enable row level security;

alter table plaudit.public_profiles add column media_moderation text not null default 'auto'
  check (media_moderation in ('auto', 'manual'));
comment on column plaudit.public_profiles.media_moderation is 'auto: new photos and videos show with their review; manual: they stay hidden until the business shows them.';
grant insert (media_moderation), update (media_moderation) on plaudit.public_profiles to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
