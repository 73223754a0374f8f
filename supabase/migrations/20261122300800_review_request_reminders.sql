-- Reminders: where an organization turned them on, a request that was sent and not answered
-- gets a reminder reminder_delay_days after it was sent, and (with reminder_max = 2) a second one
-- as long again after the first. Never once the request is completed, bounced, complained,
-- unsubscribed or failed, nor to a suppressed address; the e-mail of a reminder still queued when
-- that happens is withdrawn (plaudit.apply_review_request_event).
--
-- p_now is the clock: pg_cron and the worker pass nothing (now()); tests pass a simulated time.
-- Answers how many reminders were queued.
create function plaudit.queue_due_reminders(
  p_now timestamptz default null, p_limit integer default 1000, p_org_ids uuid[] default null
)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  clock timestamptz := coalesce(p_now, now());
  n integer;
begin
  with due as (
    select q.id, q.org_id, q.email, q.name, q.locale, q.link_base, q.reminders_sent + 1 as reminder, f.name as form_name
    from plaudit.review_request_settings s
    join plaudit.review_requests q
      on q.org_id = s.org_id
     and q.status in ('sent', 'delivered', 'opened', 'clicked')
     and q.sent_at <= clock - make_interval(days => s.reminder_delay_days)
    join plaudit.review_forms f on f.id = q.form_id
    where s.reminders_enabled
      and (p_org_ids is null or s.org_id = any (p_org_ids))
      and q.completed_at is null
      and q.reminders_sent < s.reminder_max
      and coalesce(q.last_reminder_at, q.sent_at) <= clock - make_interval(days => s.reminder_delay_days)
      and not exists (select from plaudit.email_suppressions x
                      where x.org_id = q.org_id and lower(x.email) = lower(q.email))
    order by q.sent_at
    limit p_limit
    for update of q skip locked
  ), marked as (
    update plaudit.review_requests q
      set reminders_sent = due.reminder, last_reminder_at = clock
      from due where q.id = due.id
      returning q.id
  ), events as (
    insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, data)
    select due.org_id, due.id, 'reminder_queued', 'reminder_queued:' || due.reminder, now(),
           jsonb_build_object('reminder', due.reminder)
    from due join marked using (id)
    on conflict (org_id, request_id, dedupe_key) do nothing
  )
  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
  select due.org_id, due.email, 'review_reminder', due.locale,
         jsonb_build_object('review_request_id', due.id, 'name', due.name, 'form_name', due.form_name,
                            'reminder', due.reminder)
           || plaudit.review_request_links(due.id, due.link_base),
         'review_reminder:' || due.id || ':' || due.reminder
  from due join marked using (id)
  on conflict (idempotency_key) do nothing;
  get diagnostics n = row_count;
  if n > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;
  return n;
end
$$;

-- What runs every minute for review requests: due reminders, and idempotency keys past their
-- 24 hours. pg_cron schedules it where it is loaded; elsewhere the worker calls it.
create function plaudit.run_review_request_maintenance()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform plaudit.queue_due_reminders();
  delete from plaudit.idempotency_keys where created_at < now() - interval '24 hours';
end
$$;

grant execute on function plaudit.run_review_request_maintenance() to plaudit_worker;

revoke execute on function plaudit.queue_due_reminders(timestamptz, integer, uuid[]),
  plaudit.run_review_request_maintenance() from public;

do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and current_setting('shared_preload_libraries', true) like '%pg_cron%'
     and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database()
  then
    create extension if not exists pg_cron with schema pg_catalog;
    perform cron.schedule('plaudit-review-requests', '* * * * *', 'select plaudit.run_review_request_maintenance()');
  else
    raise notice 'pg_cron is not loaded here: the worker runs plaudit.run_review_request_maintenance()';
  end if;
end
$$;
