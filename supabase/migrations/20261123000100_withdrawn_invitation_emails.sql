-- Withdrawing an invitation also withdraws its e-mail when that is still waiting in the outbox
-- (the worker was down, or the send is being retried), so that nobody is invited after the
-- invitation was taken back. An e-mail the worker has already claimed may still go out; its link
-- then opens the page that says the invitation was withdrawn.
create function plaudit.invitations_cancel_queued_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update plaudit.email_outbox e
    set status = 'failed', last_error = 'cancelled: the invitation was withdrawn', locked_until = null
    where e.org_id = new.org_id and e.status = 'queued' and e.template = 'team_invitation'
      and e.data ->> 'invitation_id' = new.id::text;
  return null;
end
$$;

revoke execute on function plaudit.invitations_cancel_queued_email() from public;

create trigger invitations_cancel_queued_email
  after update of revoked_at on plaudit.invitations
  for each row
  when (old.revoked_at is null and new.revoked_at is not null)
  execute function plaudit.invitations_cancel_queued_email();
