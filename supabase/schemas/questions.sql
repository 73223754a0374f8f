-- Questions (docs/questions.md): a shopper asks about a product or the business and confirms by
-- an e-mailed link; a product's question is then sent to its verified buyers; moderation hides and
-- unhides on the questions' trail, and nothing is deleted; exports of questions. The public writes
-- run as plaudit_public through the SECURITY DEFINER functions below, each limited per client
-- address; the business reads and moderates as plaudit_api, bound by RLS. Answers:
-- question_answers.sql.

-- The visible answers of a question (not hidden), oldest first: what the public sees and what
-- `answered` means.
create or replace function plaudit.questions_answers_visible(p_question_id uuid)
returns setof plaudit.question_answers
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select a.* from plaudit.question_answers a
   where a.question_id = p_question_id and not a.is_hidden
   order by a.created_at, a.id
$$;
comment on function plaudit.questions_answers_visible(uuid) is 'A question''s answers that are not hidden, oldest first.';
grant execute on function plaudit.questions_answers_visible(uuid) to plaudit_api;

-- An answer as the organization's API shows it (with its visibility).
create or replace function plaudit.question_answer_json(a plaudit.question_answers)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', a.id, 'content', a.content, 'author', a.author, 'author_name', a.author_name,
    'is_hidden', a.is_hidden, 'helpful_count', a.helpful_count, 'created_at', plaudit.iso_utc(a.created_at))
$$;
comment on function plaudit.question_answer_json(plaudit.question_answers) is 'An answer as the organization''s API shows it.';
grant execute on function plaudit.question_answer_json(plaudit.question_answers) to plaudit_api;

-- A question as the organization's API shows it: its product, the asker (the address is the
-- business's to read, never the public's), status, and every answer, hidden ones marked. Runs as
-- the caller: RLS keeps the tenant to its own rows. Null: no such question of the tenant.
create or replace function plaudit.question_json(p_id uuid)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', q.id,
    'product', (select json_build_object('id', p.id, 'external_id', p.external_id, 'name', p.name)
                  from plaudit.products p where p.id = q.product_id),
    'question', q.question, 'asker_name', q.asker_name, 'asker_email', q.asker_email, 'status', q.status,
    'answered', exists (select from plaudit.questions_answers_visible(q.id)),
    'answers', coalesce((select json_agg(plaudit.question_answer_json(a) order by a.created_at, a.id)
                           from plaudit.question_answers a where a.question_id = q.id), '[]'::json),
    'confirmed_at', plaudit.iso_utc(q.confirmed_at), 'created_at', plaudit.iso_utc(q.created_at))
    from (select x.id, x.product_id, x.question, x.asker_name, x.asker_email, x.status, x.confirmed_at, x.created_at
            from plaudit.questions x where x.id = p_id) q
$$;
comment on function plaudit.question_json(uuid) is 'A question of the caller''s tenant as the API answers it, with every answer.';
grant execute on function plaudit.question_json(uuid) to plaudit_api;

-- A page of the caller's tenant's questions, newest first, as the response body (data and meta):
-- filtered by status, product and whether a visible answer exists.
create or replace function plaudit.question_page(
  p_status text, p_product_id uuid, p_answered boolean, p_page integer, p_limit integer
)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  with matching as (
    select q.id, q.created_at from plaudit.questions q
     where (p_status is null or q.status = p_status)
       and (p_product_id is null or q.product_id = p_product_id)
       and (p_answered is null or p_answered = exists (select from plaudit.questions_answers_visible(q.id)))
  ), page as (
    select m.id, m.created_at from matching m order by m.created_at desc, m.id desc
     limit p_limit offset (p_page - 1) * p_limit
  )
  select '{"data":' || coalesce((select json_agg(plaudit.question_json(page.id) order by page.created_at desc, page.id desc)
                                   from page), '[]'::json)::text
      || ',"meta":' || plaudit.page_meta((select count(*) from matching), p_page, p_limit) || '}'
$$;
comment on function plaudit.question_page(text,uuid,boolean,integer,integer) is 'A page of the caller''s tenant''s questions, filtered, as the response body.';
grant execute on function plaudit.question_page(text,uuid,boolean,integer,integer) to plaudit_api;

-- A public question item, key for key as the contract lists it: never an address, text as text.
create or replace function plaudit.public_question_json(q plaudit.questions)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', q.id, 'question', q.question, 'asker_name', q.asker_name, 'created_at', plaudit.iso_utc(q.created_at),
    'answers', coalesce((select json_agg(json_build_object(
        'id', a.id, 'content', a.content, 'author', a.author, 'author_name', a.author_name,
        'created_at', plaudit.iso_utc(a.created_at), 'helpful_count', a.helpful_count) order by a.created_at, a.id)
      from plaudit.questions_answers_visible(q.id) a), '[]'::json))
$$;
comment on function plaudit.public_question_json(plaudit.questions) is 'A public question item with its visible answers, never an address.';

-- GET /public/products/:slug/:externalId/questions (p_external_id given) and
-- GET /public/questions/:slug (null: the questions about the business): a page of published
-- questions, newest answered first, then the unanswered newest first, as the response body, with
-- the version of the answers that show it (the product's, else the organization's). No row's
-- body: unknown slug or product, or a profile switched off.
create or replace function plaudit.public_question_page(
  p_slug text, p_external_id text, p_page integer, p_limit integer, out version text, out body text
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org uuid;
  product uuid;
  total bigint;
begin
  select o.id into org from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug and coalesce(p.enabled, true);
  if org is null then
    return;
  end if;
  if p_external_id is not null then
    select p.id into product from plaudit.products p where p.org_id = org and p.external_id = p_external_id;
    if product is null then
      return;
    end if;
    version := plaudit.public_product_version(p_slug, p_external_id, false);
  else
    version := plaudit.public_version(p_slug);
  end if;
  select count(*) into total from plaudit.questions q
   where q.org_id = org and q.status = 'published' and q.product_id is not distinct from product;
  body := '{"data":' || coalesce((
      select json_agg(plaudit.public_question_json(q) order by q.last_answered_at desc nulls last, q.created_at desc, q.id)
        from (select * from plaudit.questions q
               where q.org_id = org and q.status = 'published' and q.product_id is not distinct from product
               order by q.last_answered_at desc nulls last, q.created_at desc, q.id
               limit p_limit offset (p_page - 1) * p_limit) q), '[]'::json)::text
    || ',"meta":' || plaudit.page_meta(total, p_page, p_limit) || '}';
end
$$;
comment on function plaudit.public_question_page(text,text,integer,integer) is 'A page of published questions of a product or the business, newest answered first, as the response body, with its version.';
grant execute on function plaudit.public_question_page(text,text,integer,integer) to plaudit_public;

-- A shopper's question, in one round trip as SECURITY DEFINER (an asker has no tenant): the hit
-- counts in the address's window first; within the limit, the slug's business (profile switched
-- on) and the product by its external id, if named; the question is stored pending and its
-- confirmation link e-mailed, as a review's e-mail verification. Refusals come back as
-- error_code and error_message, as PostgreSQL raised them.
create or replace function plaudit.ask_question(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_product_external_id text,
  p_question text, p_name text, p_email text, p_link_base text
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text, id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  org uuid;
  product uuid;
  token text := plaudit.random_base62(43);
begin
  select h.allowed, h.remaining, h.reset_at into rate_allowed, rate_remaining, rate_reset
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h;
  if not rate_allowed then
    return next;
    return;
  end if;
  begin
    select o.id into org from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where o.slug = p_slug and coalesce(p.enabled, true);
    if org is null then
      raise exception 'Business not found' using errcode = 'no_data_found';
    end if;
    if p_product_external_id is not null then
      select p.id into product from plaudit.products p
       where p.org_id = org and p.external_id = p_product_external_id and not p.archived;
      if product is null then
        raise exception 'Product not found' using errcode = 'no_data_found';
      end if;
    end if;
    insert into plaudit.questions as q
      (org_id, product_id, question, asker_name, asker_email, confirmation_token_hash)
    values (org, product, btrim(p_question), btrim(p_name), btrim(p_email), sha256(convert_to(token, 'UTF8')))
    returning q.id into id;
    perform plaudit.enqueue_email(org, btrim(p_email), 'question_confirmation',
      jsonb_build_object('question_id', id, 'asker_name', btrim(p_name), 'question', btrim(p_question),
                         'confirm_url', p_link_base || '/questions/confirm/' || token),
      'en', 'question_confirmation:' || id);
  exception
    when no_data_found or check_violation or not_null_violation then
      get stacked diagnostics error_code = returned_sqlstate, error_message = message_text;
      id := null;
  end;
  return next;
end
$$;
comment on function plaudit.ask_question(text,integer,text,text,text,text,text,text) is 'Stores a shopper''s question pending, limited per address, and e-mails its confirmation link; answers the refusal as raised.';
grant execute on function plaudit.ask_question(text,integer,text,text,text,text,text,text) to plaudit_public;

-- Spends a question's confirmation link: the question is published (question.created), and a
-- product's question is e-mailed to its verified buyers when the business asks them
-- (plaudit.ask_verified_buyers). Outcome: confirmed | already_confirmed | expired | invalid.
create or replace function plaudit.confirm_question(p_token text, p_link_base text)
returns table (outcome text, question_id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q plaudit.questions;
begin
  select * into q from plaudit.questions x
   where x.confirmation_token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
   for update;
  if not found then
    return query select 'invalid'::text, null::uuid;
    return;
  end if;
  if q.confirmed_at is not null then
    return query select 'already_confirmed'::text, q.id;
    return;
  end if;
  if q.confirmation_expires_at <= now() then
    return query select 'expired'::text, q.id;
    return;
  end if;
  perform set_config('plaudit.actor', 'asker:email_link', true);
  update plaudit.questions x set status = 'published', confirmed_at = now(), updated_at = now()
   where x.id = q.id returning x.* into q;
  perform set_config('plaudit.actor', '', true);
  perform plaudit.emit_event(q.org_id, 'question.created', jsonb_build_object(
    'id', q.id, 'product', plaudit.review_product_json(q.product_id)::jsonb, 'question', q.question,
    'asker_name', q.asker_name, 'created_at', plaudit.iso_utc(q.created_at)));
  perform plaudit.ask_verified_buyers(q, p_link_base);
  return query select 'confirmed'::text, q.id;
end
$$;
comment on function plaudit.confirm_question(text,text) is 'Spends a question''s confirmation link: publishes it, with question.created, and asks its verified buyers.';
grant execute on function plaudit.confirm_question(text,text) to plaudit_public;

-- Up to 10 customers whose orders held the question's product (not refunded, with an address,
-- not the asker, not on the suppression list; the latest purchases first) each get a single-use
-- link to answer this one question, when the business's profile asks buyers (ask_buyers, on by
-- default). The answer is signed with the first word of the order's name. Called on confirmation.
create or replace function plaudit.ask_verified_buyers(q plaudit.questions, p_link_base text)
returns integer
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  buyer record;
  token text;
  asked integer := 0;
  product plaudit.products;
begin
  select * into product from plaudit.products p where p.id = q.product_id;
  if product.id is null
     or not coalesce((select pp.ask_buyers from plaudit.public_profiles pp where pp.org_id = q.org_id), true) then
    return 0;
  end if;
  for buyer in
    select b.email, b.name from (
      select distinct on (lower(o.email)) o.email, o.name, coalesce(o.purchased_at, o.created_at) as bought
        from plaudit.orders o
        join plaudit.order_items i on i.org_id = o.org_id and i.order_id = o.order_id
       where o.org_id = q.org_id and i.product_external_id = product.external_id and not i.refunded
         and o.email is not null and lower(o.email) is distinct from lower(q.asker_email)
         and not exists (select from plaudit.email_suppressions s
                          where s.org_id = q.org_id and s.email_key = plaudit.email_key(q.org_id, o.email))
       order by lower(o.email), coalesce(o.purchased_at, o.created_at) desc) b
     order by b.bought desc
     limit 10
  loop
    token := plaudit.random_base62(43);
    insert into plaudit.question_answer_tokens (org_id, question_id, token_hash, author_name)
    values (q.org_id, q.id, sha256(convert_to(token, 'UTF8')),
            coalesce(left(nullif(split_part(btrim(buyer.name), ' ', 1), ''), 200), 'Verified buyer'));
    perform plaudit.enqueue_email(q.org_id, buyer.email, 'question_for_buyer',
      jsonb_build_object('question_id', q.id, 'question', q.question, 'product_name', product.name,
                         'buyer_name', buyer.name,
                         'answer_url', p_link_base || '/answers/' || token),
      'en', 'question_for_buyer:' || q.id || ':' || lower(buyer.email));
    asked := asked + 1;
  end loop;
  return asked;
end
$$;
comment on function plaudit.ask_verified_buyers(plaudit.questions,text) is 'E-mails a published product question to up to 10 of its buyers, each with a single-use answer link.';

-- Hides or unhides a question of the caller's tenant, with a reason for the trail, as reviews'
-- moderation does. A question hidden before its asker confirmed it goes back to pending.
create or replace function plaudit.moderate_question(p_id uuid, p_action text, p_reason text, p_actor text)
returns void
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  hide boolean := p_action = 'hide';
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  perform set_config('plaudit.moderation_reason', coalesce(p_reason, ''), true);
  update plaudit.questions q
     set status = case when hide then 'hidden' when q.confirmed_at is null then 'pending' else 'published' end,
         updated_at = now()
   where q.id = p_id and (q.status = 'hidden') = not hide;
  if not found then
    perform set_config('plaudit.moderation_reason', '', true);
    if exists (select from plaudit.questions q where q.id = p_id) then
      raise exception '%', case when hide then 'Question is already hidden' else 'Question is not hidden' end
        using errcode = 'object_not_in_prerequisite_state';
    end if;
    raise exception 'Question not found' using errcode = 'no_data_found';
  end if;
  perform set_config('plaudit.moderation_reason', '', true);
  perform set_config('plaudit.actor', '', true);
end
$$;
comment on function plaudit.moderate_question(uuid,text,text,text) is 'Hides or unhides a question of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';
grant execute on function plaudit.moderate_question(uuid,text,text,text) to plaudit_api;

-- The trail's entry for each hide and unhide of a question, in the transaction of the change,
-- with the actor and the reason given.
create or replace function plaudit.questions_record_moderation()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if (old.status = 'hidden') is distinct from (new.status = 'hidden') then
    insert into plaudit.question_moderation_trail (org_id, question_id, action, reason, actor)
    values (new.org_id, new.id, case when new.status = 'hidden' then 'hide' else 'unhide' end,
            nullif(current_setting('plaudit.moderation_reason', true), ''), plaudit.current_actor());
  end if;
  return null;
end
$$;
comment on function plaudit.questions_record_moderation() is 'Every hide and unhide of a question is appended to the questions'' trail.';

-- A change the public may see (a question published or hidden, an answer written or hidden) moves
-- the organization's public version (ETags) and asks for its CDN purge; a helpful vote on an
-- answer does the same in plaudit.vote_answer_helpful.
create or replace function plaudit.questions_public_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(new.org_id)));
  perform plaudit.request_cdn_purge(new.org_id, false);
  return null;
end
$$;
comment on function plaudit.questions_public_change() is 'A public change of questions or answers moves the organization''s public version and asks for its CDN purge.';

-- Questions and answers are never deleted, whoever asks: moderation hides them instead.
create or replace function plaudit.questions_refuse_delete()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  raise exception 'questions and answers cannot be deleted; hide them through moderation instead'
    using errcode = 'restrict_violation';
end
$$;
comment on function plaudit.questions_refuse_delete() is 'Questions and answers are never deleted or truncated: moderation hides them instead.';

-- The header line of a questions export (CSV): the question's columns, its product's, and its
-- answers as one cell, each `author_name (author): content` on a line of its own.
create or replace function plaudit.export_question_csv_header()
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select 'id,product_external_id,product_name,question,asker_name,asker_email,status,created_at,answers'
$$;
comment on function plaudit.export_question_csv_header() is 'The header line of a CSV export of questions.';

-- The next questions of an export after its cursor, in file order (created_at, id): the chunk's
-- body (CSV rows, or JSON elements joined by commas, each the organization's Question), how many
-- and the last one. Hidden questions only with include_hidden; pending ones never. Called by
-- plaudit.export_step, as the worker's definer.
create or replace function plaudit.export_question_chunk(
  p_org_id uuid, p_format text, p_from timestamptz, p_to timestamptz, p_after_ts timestamptz, p_after_id uuid,
  p_with_hidden boolean, p_rows integer
)
returns table (body text, row_count integer, last_created_at timestamptz, last_id uuid)
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select string_agg(case when p_format = 'csv' then
           q.id::text || ',' || plaudit.csv_cell(p.external_id) || ',' || plaudit.csv_cell(p.name) || ','
           || plaudit.csv_cell(q.question) || ',' || plaudit.csv_cell(q.asker_name) || ','
           || plaudit.csv_cell(q.asker_email) || ',' || q.status || ',' || plaudit.iso_utc(q.created_at) || ','
           || plaudit.csv_cell((select string_agg(a.author_name || ' (' || a.author || '): ' || a.content, E'\n'
                                                   order by a.created_at, a.id)
                                  from plaudit.question_answers a where a.question_id = q.id and not a.is_hidden))
           || E'\r\n'
         else plaudit.question_json(q.id)::text end, case when p_format = 'csv' then '' else ',' end),
         count(*)::integer, max(q.created_at), (array_agg(q.id))[count(*)::integer]
    from (select x.* from plaudit.questions x
           where x.org_id = p_org_id and x.created_at >= p_from and x.created_at < p_to
             and (x.created_at, x.id) > (p_after_ts, p_after_id)
             and (x.status = 'published' or (p_with_hidden and x.status = 'hidden'))
           order by x.created_at, x.id limit p_rows) q
    -- The product looked up per question in the page's order (OFFSET 0 keeps any join from reordering it).
    left join lateral (select pr.external_id, pr.name from plaudit.products pr where pr.id = q.product_id offset 0) p
      on true
$$;
comment on function plaudit.export_question_chunk(uuid,text,timestamp with time zone,timestamp with time zone,timestamp with time zone,uuid,boolean,integer) is 'The next chunk of a questions export after its cursor: its body, row count and last question.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger questions_record_moderation
  after update on plaudit.questions
  for each row when (old.status is distinct from new.status)
  execute function plaudit.questions_record_moderation();

create trigger questions_public_change
  after update on plaudit.questions
  for each row when (old.status is distinct from new.status)
  execute function plaudit.questions_public_change();

create trigger questions_refuse_delete
  before delete on plaudit.questions
  for each row execute function plaudit.questions_refuse_delete();

create trigger questions_refuse_truncate
  before truncate on plaudit.questions
  for each statement execute function plaudit.questions_refuse_delete();

create trigger question_moderation_trail_refuse_change
  before update or delete on plaudit.question_moderation_trail
  for each row execute function plaudit.moderation_trail_refuse_change();

create trigger question_moderation_trail_refuse_truncate
  before truncate on plaudit.question_moderation_trail
  for each statement execute function plaudit.moderation_trail_refuse_change();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own questions"
  on plaudit.questions for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can moderate their own questions"
  on plaudit.questions for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own questions' moderation trail"
  on plaudit.question_moderation_trail for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select (id, org_id, product_id, question, asker_name, asker_email, status, confirmed_at, last_answered_at,
              created_at, updated_at) on plaudit.questions to plaudit_api;
grant update (status, updated_at) on plaudit.questions to plaudit_api;
grant select on plaudit.question_moderation_trail to plaudit_api;
