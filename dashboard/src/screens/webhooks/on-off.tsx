// Turning an endpoint off or on again, and deleting it, each off and delete asked first.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { navigate } from '../../router.ts';
import { useAppPath } from '../../session.ts';
import { ErrorNotice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { useAction } from '../../ui/hooks.ts';

type Webhook = Schemas['Webhook'];

export function OnOff(
  { ids, hook, onChange }: { ids: ItemIds; hook: Webhook; onChange: (w: Webhook) => void },
) {
  const appPath = useAppPath();
  const [step, setStep] = useState<'off' | 'delete' | null>(null);
  const toggle = useAction(async (enabled: boolean) => {
    const w = await api.patch('/organizations/{orgId}/webhooks/{id}', { params: ids, body: { enabled } });
    setStep(null);
    onChange(w);
  });
  const remove = useAction(async () => {
    await api.delete('/organizations/{orgId}/webhooks/{id}', { params: ids });
    navigate(appPath('/developers/webhooks?deleted=1'));
  });
  return (
    <section class='card' aria-labelledby='onoff-title'>
      <h2 id='onoff-title'>Turn off or delete</h2>
      <ErrorNotice error={toggle.error ?? remove.error} />
      {hook.enabled
        ? (
          step === 'off'
            ? (
              <ConfirmStep
                class='dev-confirm'
                label='Turn the endpoint off'
                question={
                  <>
                    <strong>Turn this endpoint off?</strong>{' '}
                    Deliveries waiting for a retry are cancelled; new events are not sent until you turn it on again.
                  </>
                }
                yes='Yes, turn off'
                pending={toggle.pending}
                onYes={() => void toggle.run(false)}
                onCancel={() => setStep(null)}
              />
            )
            : (
              <p>
                <button type='button' class='button' onClick={() => setStep('off')}>Turn off</button>
              </p>
            )
        )
        : (
          <p>
            <button
              type='button'
              class='button primary'
              disabled={toggle.pending}
              onClick={() => void toggle.run(true)}
            >
              Turn on
            </button>{' '}
            <span class='muted small'>New events are sent again; missed ones can be redelivered from the log.</span>
          </p>
        )}
      {step === 'delete'
        ? (
          <ConfirmStep
            class='dev-confirm'
            label='Delete the endpoint'
            question={
              <>
                <strong>Delete this endpoint?</strong>{' '}
                Deliveries stop at once and its delivery log is deleted with it. This cannot be undone.
              </>
            }
            yes='Yes, delete endpoint'
            pending={remove.pending}
            onYes={() => void remove.run()}
            onCancel={() => setStep(null)}
          />
        )
        : <button type='button' class='button danger' onClick={() => setStep('delete')}>Delete endpoint</button>}
    </section>
  );
}
