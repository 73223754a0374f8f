// Deleting a form, asked first; its reviews stay.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { navigate } from '../../router.ts';
import { useAppPath } from '../../session.ts';
import { ErrorNotice } from '../../ui/components.tsx';
import { ConfirmStep } from '../../ui/confirm.tsx';
import { useAction } from '../../ui/hooks.ts';
import { setFlash } from './flash.ts';

type Form = Schemas['ReviewForm'];

export function DeleteForm({ form, ids }: { form: Form; ids: ItemIds }) {
  const appPath = useAppPath();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await api.delete('/organizations/{orgId}/review-forms/{id}', { params: ids });
    setFlash(`The form “${form.name}” is deleted. The reviews it collected are kept.`);
    navigate(appPath('/forms'));
  });
  return (
    <section class='card danger-zone' aria-labelledby='delete-heading'>
      <h2 id='delete-heading'>Delete this form</h2>
      <p class='muted small'>
        Its link stops working and it leaves this list. The reviews it collected stay, with their answers.
      </p>
      <ErrorNotice error={remove.error} />
      {confirming
        ? (
          <ConfirmStep
            class='confirm-box'
            questionId='delete-question'
            question={
              <>
                <strong>Delete “{form.name}” for good?</strong> This cannot be undone.
              </>
            }
            yes='Yes, delete the form'
            pending={remove.pending}
            onYes={() => void remove.run()}
            onCancel={() => setConfirming(false)}
          />
        )
        : <button type='button' class='button danger' onClick={() => setConfirming(true)}>Delete form</button>}
    </section>
  );
}
