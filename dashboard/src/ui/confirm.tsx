// The "Are you sure?" step before an action that cannot simply be undone: the question, the
// button that does it, and Cancel. Each screen keeps its own box (class) and its own focus.
import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api.ts';
import { ErrorNotice } from './components.tsx';

export interface ConfirmStepProps {
  /** The box's class; none for a step inside a box of its own. */
  class?: string;
  /** The group's name for screen readers; without it (and questionId) the box is a plain block. */
  label?: string;
  /** Names the group by the question itself. */
  questionId?: string;
  question: ComponentChildren;
  yes: ComponentChildren;
  tone?: 'danger' | 'primary';
  pending?: boolean;
  error?: ApiError;
  onYes: () => void;
  onCancel: () => void;
  yesRef?: Ref<HTMLButtonElement>;
  /** Given, the box itself takes the focus when it appears. */
  boxRef?: Ref<HTMLDivElement>;
}

export function ConfirmStep(
  { class: cls, label, questionId, question, yes, tone = 'danger', pending, error, onYes, onCancel, yesRef, boxRef }:
    ConfirmStepProps,
) {
  const named = label || questionId;
  return (
    <div
      class={cls}
      ref={boxRef}
      tabIndex={boxRef ? -1 : undefined}
      role={named ? 'group' : undefined}
      aria-label={label}
      aria-labelledby={questionId}
    >
      {error && <ErrorNotice error={error} />}
      <p id={questionId}>{question}</p>
      <div class='actions'>
        <button ref={yesRef} type='button' class={`button ${tone}`} disabled={pending} onClick={onYes}>
          {yes}
        </button>
        <button type='button' class='button' onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** A button that first asks, inline, and focuses the answer that does it. */
export function Confirm(
  { label, about, question, confirm, pending, onConfirm, tone = 'danger' }: {
    label: string;
    /** What the action is about, for screen readers when the label alone is short. */
    about?: string;
    question: ComponentChildren;
    confirm: string;
    pending?: boolean;
    onConfirm: () => void;
    tone?: 'danger' | 'primary';
  },
) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type='button' class={`button ${tone}`} onClick={() => setAsking(true)}>
        {label}
        {about && <span class='visually-hidden'>{` ${about}`}</span>}
      </button>
    );
  }
  return (
    <ConfirmStep
      class='confirm'
      label={about ? `${label} ${about}` : label}
      question={question}
      yes={confirm}
      tone={tone}
      pending={pending}
      onYes={onConfirm}
      onCancel={() => setAsking(false)}
      yesRef={yes}
    />
  );
}
