// A form's link to share, and switching the form on or off.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { Badge, CopyField, ErrorNotice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { useAction } from '../../ui/hooks.ts';

type Form = Schemas['ReviewForm'];

/** The link to share, and switching the form on or off (off asks first). */
export function Sharing(
  { form, ids, onChange }: { form: Form; ids: ItemIds; onChange: (f: Form, what: string) => void },
) {
  const [confirming, setConfirming] = useState(false);
  const toggle = useAction(async (active: boolean) => {
    const f = await api.patch('/organizations/{orgId}/review-forms/{id}', { params: ids, body: { is_active: active } });
    setConfirming(false);
    onChange(
      f,
      active ? 'The form takes reviews again.' : 'The form is deactivated: its link now says that it is closed.',
    );
  });
  return (
    <section class='card' aria-labelledby='sharing-heading'>
      <div class='card-title-row'>
        <h2 id='sharing-heading'>Share the form</h2>
        <Badge tone={form.is_active ? 'good' : 'plain'}>{form.is_active ? 'Active' : 'Inactive'}</Badge>
      </div>
      <p class='muted small'>
        {form.is_active
          ? 'Anyone with this link can write a review. Put it in your e-mails, on receipts or on your site.'
          : 'This form is inactive: people who open its link read that it is closed and cannot send a review.'}
      </p>
      <CopyField label='Submission link' value={form.submission_url} />
      <ErrorNotice error={toggle.error} />
      {confirming
        ? (
          <ConfirmStep
            class='confirm-box'
            questionId='deactivate-question'
            question={
              <>
                <strong>Deactivate this form?</strong>{' '}
                Customers who open its link will read that it is closed. You can activate it again at any time.
              </>
            }
            yes='Yes, deactivate'
            pending={toggle.pending}
            onYes={() => void toggle.run(false)}
            onCancel={() => setConfirming(false)}
          />
        )
        : (
          <div class='actions'>
            <a class='button' href={form.submission_url} target='_blank' rel='noopener'>
              Open the form <span class='visually-hidden'>in a new tab</span>
            </a>
            {form.is_active
              ? <button type='button' class='button' onClick={() => setConfirming(true)}>Deactivate form</button>
              : (
                <button
                  type='button'
                  class='button primary'
                  disabled={toggle.pending}
                  onClick={() => void toggle.run(true)}
                >
                  Activate form
                </button>
              )}
          </div>
        )}
    </section>
  );
}
