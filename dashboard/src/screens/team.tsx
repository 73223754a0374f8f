// The team: who works on the organization's reviews, with which role, and who is invited. Owners
// and admins invite people, withdraw invitations, change roles and remove members; a member sees
// the list. The rules (an organization keeps an owner; only owners make or unmake owners) are the
// API's, and its messages say them.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError, type Schemas } from '../api.ts';
import { useOrgId, useWorkspace } from '../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { TextField } from '../ui/fields.tsx';
import { formatDate } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';

type Member = Schemas['Member'];
type Invitation = Schemas['Invitation'];
type Role = Member['role'];

const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const A_ROLE: Record<Role, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

const ROLE_DOES: Record<Role, string> = {
  owner: 'Everything an admin can do, and making or removing owners. An organization always keeps at least one owner.',
  admin: 'Manages API keys, webhooks, the team and the settings, and everything a member does.',
  member: 'Works with reviews: approves, hides and replies to them, sends review requests and manages forms.',
};

const INVITATION_STATUS: Record<Invitation['status'], [string, string]> = {
  pending: ['Pending', 'warn'],
  accepted: ['Accepted', 'good'],
  expired: ['Expired', 'plain'],
  revoked: ['Withdrawn', 'bad'],
};

/** The API's messages sometimes start in lower case ("this address is already a member"). */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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

function InviteForm({ onInvited }: { onInvited: (inv: Invitation) => void }) {
  const w = useWorkspace();
  const orgId = useOrgId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const act = useAction(async () => {
    const inv = await api.post('/organizations/{orgId}/invitations', {
      params: { orgId },
      body: { email: email.trim(), role },
    });
    setEmail('');
    setRole('member');
    onInvited(inv);
  });
  const general = act.error && !act.error.field('email') && !act.error.field('role') ? act.error : undefined;

  return (
    <section class='card invite' aria-labelledby='invite-heading'>
      <h2 id='invite-heading'>Invite someone</h2>
      <p class='muted small'>
        Plaudit e-mails them a link to join{' '}
        {w.org.name}, valid for 7 days. They open it, enter their name and accept; from then on they sign in at{' '}
        <strong>{location.origin}/app</strong> with this address, using a link or code sent by e-mail.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run();
        }}
      >
        {general && <Notice tone='error'>{sentence(general.message)}</Notice>}
        <TextField
          label='E-mail address'
          name='email'
          error={act.error}
          type='email'
          required
          maxLength={320}
          autoComplete='off'
          spellcheck={false}
          value={email}
          onValue={setEmail}
        />
        <fieldset class='role-choice'>
          <legend>Role</legend>
          {(['member', 'admin'] as const).map((r) => (
            <label key={r} class='role-option'>
              <input
                type='radio'
                name='role'
                value={r}
                checked={role === r}
                onChange={() => setRole(r)}
                aria-describedby={`role-${r}-does`}
              />
              <span>
                <strong>{ROLE_LABEL[r]}</strong>
                <span class='muted small role-does' id={`role-${r}-does`}>{ROLE_DOES[r]}</span>
              </span>
            </label>
          ))}
          {act.error?.field('role') && <p class='field-error'>{act.error.field('role')}</p>}
          <p class='hint'>Only an owner can make someone an owner, once they have joined.</p>
        </fieldset>
        <button type='submit' class='button primary' disabled={act.pending}>
          {act.pending ? 'Sending…' : 'Send invitation'}
        </button>
      </form>
    </section>
  );
}

type Changed = (message: string, aboutMe?: boolean) => Promise<void>;
interface RowProps {
  onChanged: Changed;
  /** A row starts a step: the last success notice is old news. */
  onStart: () => void;
}

/** Moves focus into a step that just appeared (a confirmation, an editor), for keyboards and screen readers. */
function useFocusOnShow<T extends HTMLElement>(shown: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}

function MemberRow({ member, isMe, onChanged, onStart }: RowProps & { member: Member; isMe: boolean }) {
  const w = useWorkspace();
  const orgId = useOrgId();
  const [step, setStep] = useState<'idle' | 'role' | 'confirm-role' | 'remove'>('idle');
  const [role, setRole] = useState<Role>(member.role);
  const who = member.name || member.email;
  const cols = w.isAdmin ? 5 : 4;
  const detail = useFocusOnShow<HTMLDivElement>(step === 'idle' ? null : step);

  const saveRole = useAction(async () => {
    await api.patch('/organizations/{orgId}/members/{id}', { params: { orgId, id: member.id }, body: { role } });
    setStep('idle');
    await onChanged(
      isMe ? `You are now ${A_ROLE[role]} of ${w.org.name}.` : `${who} is now ${A_ROLE[role]}.`,
      isMe,
    );
  });
  const remove = useAction(async () => {
    await api.delete('/organizations/{orgId}/members/{id}', { params: { orgId, id: member.id } });
    await onChanged(isMe ? `You left ${w.org.name}.` : `${who} is removed from the team.`, isMe);
  });
  const error: ApiError | undefined = saveRole.error ?? remove.error;

  const cancel = () => {
    setStep('idle');
    setRole(member.role);
    saveRole.clearError();
    remove.clearError();
  };
  // Giving up one's own admin rights is the one role change that cannot be undone alone.
  const losesAdmin = isMe && role === 'member' || isMe && member.role === 'owner' && role !== 'owner';

  return (
    <>
      <tr class={step === 'idle' ? undefined : 'has-detail'}>
        <td data-label='Name'>
          <span class='member-name'>{member.name || <span class='muted'>No name yet</span>}</span>
          {isMe && <Badge tone='plain'>you</Badge>}
        </td>
        <td data-label='E-mail' class='break'>{member.email}</td>
        <td data-label='Role'>{ROLE_LABEL[member.role]}</td>
        <td data-label='Joined'>{formatDate(member.created_at)}</td>
        {w.isAdmin && (
          <td class='row-actions'>
            {step === 'idle' && (
              <div class='actions'>
                <button
                  type='button'
                  class='button small-button'
                  onClick={() => {
                    onStart();
                    setStep('role');
                  }}
                >
                  Change role<span class='visually-hidden'>{` of ${who}`}</span>
                </button>
                <button
                  type='button'
                  class='button danger small-button'
                  onClick={() => {
                    onStart();
                    setStep('remove');
                  }}
                >
                  {isMe ? 'Leave' : 'Remove'}
                  <span class='visually-hidden'>{isMe ? ` ${w.org.name}` : ` ${who}`}</span>
                </button>
              </div>
            )}
          </td>
        )}
      </tr>
      {step !== 'idle' && (
        <tr class='row-detail'>
          <td colSpan={cols}>
            <div ref={detail} tabIndex={-1} class='detail-box'>
              {error && <Notice tone='error'>{sentence(error.message)}</Notice>}
              {step === 'role' && (
                <form
                  class='role-form'
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (role === member.role) return cancel();
                    if (losesAdmin) setStep('confirm-role');
                    else void saveRole.run();
                  }}
                >
                  <div class='field'>
                    <label for={`role-${member.id}`}>New role for {who}</label>
                    <select
                      id={`role-${member.id}`}
                      value={role}
                      onChange={(e) => setRole(e.currentTarget.value as Role)}
                    >
                      {(['owner', 'admin', 'member'] as const).map((r) => (
                        <option key={r} value={r}>{ROLE_LABEL[r]}</option>
                      ))}
                    </select>
                    <p class='hint'>{ROLE_DOES[role]}</p>
                  </div>
                  <div class='actions'>
                    <button type='submit' class='button primary' disabled={saveRole.pending}>Save role</button>
                    <button type='button' class='button' onClick={cancel}>Cancel</button>
                  </div>
                </form>
              )}
              {step === 'confirm-role' && (
                <ConfirmStep
                  question={
                    <>
                      <strong>Change your own role to {ROLE_LABEL[role].toLowerCase()}?</strong> {role === 'member'
                        ? 'You will no longer manage the team, keys, webhooks or settings; only an owner or admin can give you that back.'
                        : 'You will no longer be able to make or remove owners; only an owner can make you one again.'}
                    </>
                  }
                  yes='Yes, change my role'
                  pending={saveRole.pending}
                  onYes={async () => {
                    await saveRole.run();
                    // Refused (the last owner, say): back to the choice, with the API's message.
                    setStep((s) => (s === 'confirm-role' ? 'role' : s));
                  }}
                  onCancel={cancel}
                />
              )}
              {step === 'remove' && (
                <ConfirmStep
                  question={
                    <>
                      <strong>{isMe ? `Leave ${w.org.name}?` : `Remove ${who} from ${w.org.name}?`}</strong> {isMe
                        ? 'You lose access at once; an owner or admin can invite you again.'
                        : 'They lose access at once, on every device. What they did stays in the reviews’ trails; you can invite them again later.'}
                    </>
                  }
                  yes={isMe ? 'Yes, leave' : `Yes, remove ${who}`}
                  pending={remove.pending}
                  onYes={() => void remove.run()}
                  onCancel={cancel}
                />
              )}
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function InvitationRow({ invitation, onChanged, onStart }: RowProps & { invitation: Invitation }) {
  const w = useWorkspace();
  const orgId = useOrgId();
  const [confirming, setConfirming] = useState(false);
  const detail = useFocusOnShow<HTMLDivElement>(confirming);
  const withdraw = useAction(async () => {
    await api.delete('/organizations/{orgId}/invitations/{id}', { params: { orgId, id: invitation.id } });
    setConfirming(false);
    await onChanged(`The invitation to ${invitation.email} is withdrawn: its link no longer works.`);
  });

  return (
    <>
      <tr class={confirming ? 'has-detail' : undefined}>
        <td data-label='E-mail' class='break'>{invitation.email}</td>
        <td data-label='Role'>{ROLE_LABEL[invitation.role]}</td>
        <td data-label='Sent'>{formatDate(invitation.created_at)}</td>
        <td data-label='Valid until'>{formatDate(invitation.expires_at)}</td>
        {w.isAdmin && (
          <td class='row-actions'>
            {!confirming && (
              <button
                type='button'
                class='button danger small-button'
                onClick={() => {
                  onStart();
                  setConfirming(true);
                }}
              >
                Withdraw<span class='visually-hidden'>{` the invitation to ${invitation.email}`}</span>
              </button>
            )}
          </td>
        )}
      </tr>
      {confirming && (
        <tr class='row-detail'>
          <td colSpan={w.isAdmin ? 5 : 4}>
            <div ref={detail} tabIndex={-1} class='detail-box'>
              {withdraw.error && <Notice tone='error'>{sentence(withdraw.error.message)}</Notice>}
              <ConfirmStep
                question={
                  <>
                    <strong>Withdraw the invitation to {invitation.email}?</strong>{' '}
                    The link in their e-mail stops working at once. You can invite them again later.
                  </>
                }
                yes='Yes, withdraw it'
                pending={withdraw.pending}
                onYes={() => void withdraw.run()}
                onCancel={() => {
                  setConfirming(false);
                  withdraw.clearError();
                }}
              />
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
