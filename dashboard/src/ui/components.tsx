// The dashboard's small building blocks: stars, badges, notices, fields, pagination, copying.
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiError, PageMeta } from '../api.ts';
import { formatNumber } from './format.ts';

export function Stars({ rating }: { rating: number }) {
  return (
    <span class='stars' role='img' aria-label={`${rating} out of 5 stars`}>
      {'★★★★★'.slice(0, rating)}
      <span class='stars-off' aria-hidden='true'>{'★★★★★'.slice(rating)}</span>
    </span>
  );
}

const TONES: Record<string, string> = {
  verified: 'good',
  approved: 'good',
  delivered: 'good',
  succeeded: 'good',
  active: 'good',
  sent: 'good',
  completed: 'good',
  pending: 'warn',
  queued: 'warn',
  scheduled: 'warn',
  retrying: 'warn',
  rejected: 'bad',
  failed: 'bad',
  hidden: 'bad',
  revoked: 'bad',
  bounced: 'bad',
  suppressed: 'bad',
};

export function Badge({ children, tone }: { children: string; tone?: string }) {
  return <span class={`badge badge-${tone ?? TONES[children.toLowerCase()] ?? 'plain'}`}>{children}</span>;
}

export function Notice(
  { tone = 'info', children }: { tone?: 'info' | 'error' | 'success'; children: ComponentChildren },
) {
  return (
    <div class={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** The message of a failed request, in the page's words; nothing when there is none. */
export function ErrorNotice({ error }: { error?: ApiError }) {
  if (!error) return null;
  return <Notice tone='error'>{error.message}</Notice>;
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p class='muted' role='status'>{what}…</p>;
}

type FieldProps = {
  label: string;
  name: string;
  hint?: ComponentChildren;
  error?: ApiError;
  children: (props: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => JSX.Element;
};

/** A labelled control with its hint and the API's message for its field. */
export function Field({ label, name, hint, error, children }: FieldProps) {
  const id = `f-${name}`;
  const problem = error?.field(name);
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class='field'>
      <label for={id}>{label}</label>
      {children({ id, name, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described || undefined })}
      {hint && <p class='hint' id={`${id}-hint`}>{hint}</p>}
      {problem && <p class='field-error' id={`${id}-error`}>{problem}</p>}
    </div>
  );
}

/** The pages of a list, from the `meta` of the API's answer. */
export function Pager({ meta, onPage }: { meta: PageMeta; onPage: (p: number) => void }) {
  const { page, totalPages, total } = meta;
  if (totalPages <= 1) return <p class='muted pager-total'>{formatNumber(total)} in all</p>;
  return (
    <nav class='pager' aria-label='Pages'>
      <button type='button' class='button' disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span>Page {formatNumber(page)} of {formatNumber(totalPages)} · {formatNumber(total)} in all</span>
      <button type='button' class='button' disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * Copies `value` to the clipboard: whether it was just copied (for two seconds, to say so), and
 * the action. `fallback` runs where the clipboard is refused (an insecure page, a denied permission).
 */
export function useCopy(value: string, fallback: () => void): [boolean, () => Promise<void>] {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      fallback();
    }
  };
  return [copied, copy];
}

/** A read-only value with a button that copies it (secrets, links, snippets). */
export function CopyField({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  const id = `copy-${label.replace(/\W+/g, '-').toLowerCase()}`;
  const [copied, copy] = useCopy(value, () => (document.getElementById(id) as HTMLInputElement | null)?.select());
  return (
    <div class='field copy-field'>
      <label for={id}>{label}</label>
      <div class='copy-row'>
        {multiline
          ? <textarea id={id} readOnly rows={4} value={value} />
          : <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />}
        <button type='button' class='button' onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <span class='visually-hidden' aria-live='polite'>{copied ? `${label} copied` : ''}</span>
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class='page-header'>
      <h1 tabIndex={-1}>{title}</h1>
      {children && <div class='page-actions'>{children}</div>}
    </header>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class='empty'>{children}</div>;
}
