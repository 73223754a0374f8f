// Labelled inputs on top of Field: the label, hint and the API's message come from Field; each
// wrapper adds only its control, so every form of the dashboard reads and behaves alike.
import type { ComponentChildren, JSX } from 'preact';
import type { ApiError } from '../api.ts';
import { Field } from './components.tsx';

interface Labelled {
  label: string;
  name: string;
  hint?: ComponentChildren;
  error?: ApiError;
}

type InputAttrs = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'value' | 'label' | 'onInput'>;

/** A one-line text input (also e-mail, url, search…: pass `type`). */
export function TextField(
  { label, name, hint, error, value, onValue, ...input }: Labelled & InputAttrs & {
    value: string;
    onValue: (value: string) => void;
  },
) {
  return (
    <Field label={label} name={name} hint={hint} error={error}>
      {(p) => <input {...p} {...input} value={value} onInput={(e) => onValue(e.currentTarget.value)} />}
    </Field>
  );
}

/** A whole number, typed with the numeric keyboard on phones; the value stays the typed text. */
export function NumberField(props: Parameters<typeof TextField>[0]) {
  return <TextField type='number' inputMode='numeric' {...props} />;
}

type TextAreaAttrs = Omit<
  JSX.TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'name' | 'value' | 'label' | 'onInput'
>;

export function TextAreaField(
  { label, name, hint, error, value, onValue, ...input }: Labelled & TextAreaAttrs & {
    value: string;
    onValue: (value: string) => void;
  },
) {
  return (
    <Field label={label} name={name} hint={hint} error={error}>
      {(p) => <textarea {...p} {...input} value={value} onInput={(e) => onValue(e.currentTarget.value)} />}
    </Field>
  );
}

/** A choice among fixed options, given as [value, label] pairs. */
export function SelectField(
  { label, name, hint, error, value, onValue, options, disabled }: Labelled & {
    value: string;
    onValue: (value: string) => void;
    options: readonly (readonly [string | number, string])[];
    disabled?: boolean;
  },
) {
  return (
    <Field label={label} name={name} hint={hint} error={error}>
      {(p) => (
        <select {...p} disabled={disabled} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
          {options.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label to the right. */
export function CheckboxField(
  { id, label, checked, onChecked }: {
    id: string;
    label: ComponentChildren;
    checked: boolean;
    onChecked: (on: boolean) => void;
  },
) {
  return (
    <div class='checkbox-field'>
      <input id={id} type='checkbox' checked={checked} onChange={(e) => onChecked(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}

/** One choice of several as radio buttons, each with its label in bold and a line saying what it does. */
export function ChoiceGroup<V extends string>(
  { legend, name, value, choices, onValue, error }: {
    legend: string;
    name: string;
    value: V;
    choices: readonly (readonly [V, string, string])[];
    onValue: (value: V) => void;
    error?: string;
  },
) {
  return (
    <fieldset class='opt-choices'>
      <legend>{legend}</legend>
      {choices.map(([v, label, text]) => (
        <label key={v} class='opt-choice'>
          <input
            type='radio'
            name={name}
            value={v}
            checked={value === v}
            aria-describedby={`${name}-${v}-text`}
            onChange={() => onValue(v)}
          />
          <span>
            <strong>{label}</strong>
            <span class='hint' id={`${name}-${v}-text`}>{text}</span>
          </span>
        </label>
      ))}
      {error && <p class='field-error'>{error}</p>}
    </fieldset>
  );
}
