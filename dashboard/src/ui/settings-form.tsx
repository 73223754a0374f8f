// A settings card's form: its saved notice, the error that names no field, its fields, and the
// button that saves them (the fields show their own errors).
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api.ts';
import { ErrorNotice, Notice } from './components.tsx';

export function SettingsForm(
  { save, saved, savedText, submitLabel, children }: {
    save: { run: () => Promise<unknown>; pending: boolean; error?: ApiError };
    saved: boolean;
    savedText: string;
    submitLabel: string;
    children: ComponentChildren;
  },
) {
  return (
    <form
      class='rr-settings'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      {saved && <Notice tone='success'>{savedText}</Notice>}
      {save.error && save.error.errors.length === 0 && <ErrorNotice error={save.error} />}
      {children}
      <button type='submit' class='button primary' disabled={save.pending}>
        {save.pending ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}
