// An endpoint's signing secret: when it was made or rotated, and rotating it (the new one shown once).
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { ErrorNotice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useAction } from '../../ui/hooks.ts';
import { OnceSecret } from '../../ui/once-secret.tsx';

type Webhook = Schemas['Webhook'];
type RotatedSecret = Schemas['RotatedWebhookSecret'];

export function SigningSecret(
  { ids, hook, onRotated }: { ids: ItemIds; hook: Webhook; onRotated: () => void },
) {
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<RotatedSecret>();
  const rotate = useAction(async () => {
    const s = await api.post('/organizations/{orgId}/webhooks/{id}/rotate-secret', { params: ids });
    setConfirming(false);
    setSecret(s);
  });
  if (secret) {
    return (
      <OnceSecret
        title='Secret rotated'
        label='New signing secret'
        secret={secret.secret}
        done={() => {
          setSecret(undefined);
          onRotated();
        }}
      >
        <p class='small'>
          Until {formatDateTime(secret.previous_secret_expires_at)}{' '}
          deliveries are signed with both the old and the new secret, so you can update your endpoint first.
        </p>
      </OnceSecret>
    );
  }
  const overlap = hook.previous_secret_expires_at && Date.parse(hook.previous_secret_expires_at) > Date.now();
  return (
    <section class='card' aria-labelledby='secret-title'>
      <h2 id='secret-title'>Signing secret</h2>
      <p class='muted small'>
        {hook.secret_rotated_at
          ? `Last rotated ${formatDateTime(hook.secret_rotated_at)}.`
          : `In use since ${formatDateTime(hook.created_at)}.`}
        {overlap && ` The previous secret also signs until ${formatDateTime(hook.previous_secret_expires_at)}.`}{' '}
        Rotate it if it may have leaked.
      </p>
      <ErrorNotice error={rotate.error} />
      {!confirming
        ? <button type='button' class='button' onClick={() => setConfirming(true)}>Rotate secret</button>
        : (
          <ConfirmStep
            class='dev-confirm calm'
            label='Rotate the signing secret'
            question={
              <>
                <strong>Rotate the signing secret?</strong>{' '}
                The new one is shown once. For 24 hours deliveries carry signatures of both secrets.
              </>
            }
            yes='Yes, rotate'
            tone='primary'
            pending={rotate.pending}
            onYes={() => void rotate.run()}
            onCancel={() => setConfirming(false)}
          />
        )}
    </section>
  );
}
