// A member of the team: their role, changing it, and removing them, each asked first.
import { useState } from 'preact/hooks';
import { api, type ApiError, type Schemas } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { Badge, Notice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { formatDate } from '../../ui/format.ts';
import { useAction } from '../../ui/hooks.ts';
import { type RowProps, useFocusOnShow } from './row.ts';
import { A_ROLE, type Role, ROLE_DOES, ROLE_LABEL, sentence } from './words.ts';

type Member = Schemas['Member'];

export function MemberRow({ member, isMe, onChanged, onStart }: RowProps & { member: Member; isMe: boolean }) {
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
