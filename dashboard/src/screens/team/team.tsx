// The team: who works on the organization's reviews, with which role, and who is invited. Owners
// and admins invite people, withdraw invitations, change roles and remove members; a member sees
// the list. The rules (an organization keeps an owner; only owners make or unmake owners) are the
// API's, and its messages say them.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../../ui/components.tsx';
import { formatDate } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { InvitationRow } from './invitation-row.tsx';
import { InviteForm } from './invite-form.tsx';
import { MemberRow } from './member-row.tsx';
import { INVITATION_STATUS, ROLE_DOES, ROLE_LABEL } from './words.ts';

const MEMBERS_PER_PAGE = 50;

export function Team(_: { params: Record<string, string> }) {
  const w = useWorkspace();
  const orgId = useOrgId();
  const [page, setPage] = useState(1);
  const members = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/members', {
        params: { orgId },
        query: { limit: MEMBERS_PER_PAGE, page },
        signal,
      }),
    [orgId, page],
  );
  const invitations = useLoad(
    (signal) => api.get('/organizations/{orgId}/invitations', { params: { orgId }, query: { limit: 100 }, signal }),
    [orgId],
  );
  const [notice, setNotice] = useState('');

  const me = w.session.email.toLowerCase();
  const pending = invitations.data?.data.filter((i) => i.status === 'pending') ?? [];
  const earlier = invitations.data?.data.filter((i) => i.status !== 'pending') ?? [];

  /** After a change: the lists again, and the session when the change was about this person. */
  const changed = async (message: string, aboutMe = false) => {
    setNotice(message);
    members.reload();
    invitations.reload();
    if (aboutMe) await w.refresh();
  };

  return (
    <>
      <PageHeader title='Team' />
      <p class='muted lede'>
        Everyone here signs in to {w.org.name}'s dashboard with their e-mail address: no passwords to share.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      {!w.isAdmin && (
        <Notice>
          You are a member of {w.org.name}: owners and admins invite people and change roles.
        </Notice>
      )}
      {w.isAdmin && (
        <InviteForm
          onInvited={(inv) =>
            void changed(
              `Invitation sent to ${inv.email}. It is valid until ${
                formatDate(inv.expires_at)
              }: they open the link in the e-mail, enter their name and accept.`,
            )}
        />
      )}

      <section class='team-section' aria-labelledby='members-heading'>
        <h2 id='members-heading'>
          Members{members.data && <span class='muted count'>{members.data.meta.total}</span>}
        </h2>
        <ErrorNotice error={members.error} />
        {members.loading && !members.data && <Loading what='Loading the team' />}
        {members.data && (
          <>
            <div class='table-wrap'>
              <table class='stack-table'>
                <thead>
                  <tr>
                    <th scope='col'>Name</th>
                    <th scope='col'>E-mail</th>
                    <th scope='col'>Role</th>
                    <th scope='col'>Joined</th>
                    {w.isAdmin && (
                      <th scope='col'>
                        <span class='visually-hidden'>Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody aria-busy={members.loading}>
                  {members.data.data.map((m) => (
                    <MemberRow
                      key={m.id}
                      member={m}
                      isMe={m.email.toLowerCase() === me}
                      onChanged={changed}
                      onStart={() => setNotice('')}
                    />
                  ))}
                </tbody>
              </table>
            </div>
            {members.data.meta.totalPages > 1 && <Pager meta={members.data.meta} onPage={setPage} />}
          </>
        )}
      </section>

      <section class='team-section' aria-labelledby='invitations-heading'>
        <h2 id='invitations-heading'>
          Pending invitations{invitations.data && <span class='muted count'>{pending.length}</span>}
        </h2>
        <ErrorNotice error={invitations.error} />
        {invitations.loading && !invitations.data && <Loading what='Loading the invitations' />}
        {invitations.data && pending.length === 0 && (
          <Empty>
            {w.isAdmin
              ? 'No invitation is waiting for an answer. Invite someone above to share the work on your reviews.'
              : 'No invitation is waiting for an answer.'}
          </Empty>
        )}
        {pending.length > 0 && (
          <div class='table-wrap'>
            <table class='stack-table'>
              <thead>
                <tr>
                  <th scope='col'>E-mail</th>
                  <th scope='col'>Role</th>
                  <th scope='col'>Sent</th>
                  <th scope='col'>Link valid until</th>
                  {w.isAdmin && (
                    <th scope='col'>
                      <span class='visually-hidden'>Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {pending.map((i) => (
                  <InvitationRow
                    key={i.id}
                    invitation={i}
                    onChanged={changed}
                    onStart={() => setNotice('')}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {earlier.length > 0 && (
          <details class='earlier'>
            <summary>Earlier invitations ({earlier.length})</summary>
            <ul class='earlier-list'>
              {earlier.map((i) => (
                <li key={i.id}>
                  <span class='earlier-email'>{i.email}</span>
                  <span class='muted small'>
                    {ROLE_LABEL[i.role]}, sent {formatDate(i.created_at)}
                  </span>
                  <Badge tone={INVITATION_STATUS[i.status][1]}>{INVITATION_STATUS[i.status][0]}</Badge>
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>

      <section class='card' aria-labelledby='roles-heading'>
        <h2 id='roles-heading'>What each role can do</h2>
        <dl class='roles-list'>
          {(['owner', 'admin', 'member'] as const).map((r) => (
            <Fragment key={r}>
              <dt>{ROLE_LABEL[r]}</dt>
              <dd>{ROLE_DOES[r]}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
    </>
  );
}
