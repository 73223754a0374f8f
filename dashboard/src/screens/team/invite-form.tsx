// Inviting someone by e-mail, as a member or an admin.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { Notice } from '../../ui/components.tsx';
import { TextField } from '../../ui/fields.tsx';
import { useAction } from '../../ui/hooks.ts';
import { ROLE_DOES, ROLE_LABEL, sentence } from './words.ts';

type Invitation = Schemas['Invitation'];

export function InviteForm({ onInvited }: { onInvited: (inv: Invitation) => void }) {
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
