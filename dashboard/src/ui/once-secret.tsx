// A signing secret shown once: after adding a webhook endpoint or rotating its secret, after
// connecting a shop through signed webhooks.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { CopyField } from './components.tsx';

/** A secret shown once: a warning, the copy field, and "Done", which removes it for good. */
export function OnceSecret({ title, label, secret, done, children, ifLost = "rotate it on the endpoint's page" }: {
  title: string;
  label: string;
  secret: string;
  done: () => void;
  children?: ComponentChildren;
  /** What to do without it: the end of "If you lose it, …". */
  ifLost?: string;
}) {
  useEffect(() => {
    document.getElementById('once-secret')?.focus();
  }, [secret]);
  return (
    <section class='card secret-card' id='once-secret' tabIndex={-1} aria-labelledby='once-secret-title'>
      <h2 id='once-secret-title'>{title}</h2>
      <p class='secret-warning'>
        <strong>Copy the signing secret now.</strong> It is shown only this once. If you lose it, {ifLost}.
      </p>
      <CopyField label={label} value={secret} />
      {children}
      <button type='button' class='button primary' onClick={done}>Done, I have stored it</button>
    </section>
  );
}
