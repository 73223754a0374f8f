// A decision taken in one step: the reasons typed first, then the button pressed is the decision.
// Reports (hide or keep the review) and appeals (reverse or uphold) decide this way.
import { useState } from 'preact/hooks';
import { ErrorNotice } from './components.tsx';
import { TextAreaField } from './fields.tsx';
import { useAction } from './hooks.ts';

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** The look of its button: `primary`, `danger`, or plain when absent. */
  tone?: 'primary' | 'danger';
}

export function DecisionForm<T extends string>({ id, name, hint, choices, decide }: {
  /** What is decided, to name the reasons' field apart from the other forms of the page. */
  id: string;
  /** The buttons' name, as the form posts it. */
  name: string;
  /** What becomes of the reasons. */
  hint: string;
  /** The decisions, the first one the default when the form is sent without a button. */
  choices: readonly Choice<T>[];
  decide: (choice: T, resolution: string) => Promise<void>;
}) {
  const [resolution, setResolution] = useState('');
  const action = useAction((choice: T) => decide(choice, resolution.trim()));
  return (
    <form
      class='report-resolve'
      onSubmit={(e) => {
        e.preventDefault();
        const pressed = (e as SubmitEvent).submitter?.getAttribute('value');
        void action.run(choices.find((c) => c.value === pressed)?.value ?? choices[choices.length - 1].value);
      }}
    >
      {action.error && !action.error.field('resolution') && <ErrorNotice error={action.error} />}
      <TextAreaField
        label='Reasons for your decision'
        name={`resolution-${id}`}
        error={action.error}
        hint={hint}
        required
        maxLength={2000}
        rows={2}
        value={resolution}
        onValue={setResolution}
      />
      <div class='actions'>
        {choices.map((c) => (
          <button
            type='submit'
            name={name}
            value={c.value}
            class={c.tone ? `button ${c.tone}` : 'button'}
            disabled={action.pending}
          >
            {c.label}
          </button>
        ))}
      </div>
    </form>
  );
}
