// An invitation: its state, and withdrawing it while it is pending.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { Notice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { formatDate } from '../../ui/format.ts';
import { useAction } from '../../ui/hooks.ts';
import { type RowProps, useFocusOnShow } from './row.ts';
import { ROLE_LABEL, sentence } from './words.ts';

type Invitation = Schemas['Invitation'];

export function InvitationRow({ invitation, onChanged, onStart }: RowProps & { invitation: Invitation }) {
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
