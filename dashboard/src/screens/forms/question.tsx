// One own question of the editor: its label, key, answer type, whether it is required, its choices,
// and moving or removing it.
import type { ApiError } from '../../api.ts';
import { Field } from '../../ui/components.tsx';
import { TextAreaField, TextField } from '../../ui/fields.tsx';
import { type Draft, optionsErrorOf } from './drafts.ts';
import { TYPES } from './words.ts';

type FieldType = Draft['type'];

export function Question(
  { draft: d, index: i, count, error, onChange, onMove, onRemove }: {
    draft: Draft;
    index: number;
    count: number;
    error?: ApiError;
    onChange: (c: Partial<Draft>) => void;
    onMove: (by: number) => void;
    onRemove: () => void;
  },
) {
  const base = `custom_fields.${i}`;
  const n = i + 1;
  const list = d.type === 'scale' ? 'scale' : 'options';
  const optionsError = optionsErrorOf(error, base, list);
  const title = d.label.trim() || 'New question';
  return (
    <li class='question'>
      <fieldset>
        <legend>
          <span class='question-number'>Question {n}</span> <span class='question-title'>{title}</span>
        </legend>
        <div class='question-grid'>
          <TextField
            label='Question'
            name={`${base}.label`}
            error={error}
            hint='As the customer reads it on the form.'
            maxLength={200}
            value={d.label}
            onValue={(v) => onChange({ label: v })}
          />
          <TextField
            label='Key'
            name={`${base}.key`}
            error={error}
            hint={d.stored
              ? 'The name of the answer in exports and the API. Reviews already sent keep their answers under the old key.'
              : 'The name of the answer in exports and the API: a-z, 0-9 and _, starting with a letter.'}
            class='mono'
            maxLength={50}
            autoComplete='off'
            spellcheck={false}
            value={d.key}
            onValue={(v) => onChange({ key: v, keyEdited: true })}
          />
          <Field label='Answer type' name={`${base}.type`} error={error}>
            {(p) => (
              <select
                {...p}
                value={d.type}
                onChange={(e) => onChange({ type: e.currentTarget.value as FieldType })}
              >
                {TYPES.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
              </select>
            )}
          </Field>
          <label class='opt-check question-required'>
            <input
              type='checkbox'
              checked={d.required}
              onChange={(e) => onChange({ required: e.currentTarget.checked })}
            />
            <span>
              Required
              <span class='hint'>
                {d.type === 'boolean'
                  ? 'The box must be ticked to send the review.'
                  : 'The review cannot be sent without an answer.'}
              </span>
            </span>
          </label>
        </div>
        {(d.type === 'select' || d.type === 'scale') && (
          <TextAreaField
            label={d.type === 'scale' ? 'Labels' : 'Choices'}
            name={`${base}.${list}`}
            error={optionsError}
            hint={d.type === 'scale'
              ? '2 to 7, one per line, in order (Runs small, True to size, Runs large). Answers are public.'
              : 'One per line, in the order the customer sees them.'}
            rows={4}
            value={d.options}
            onValue={(v) => onChange({ options: v })}
          />
        )}
        <div class='actions question-actions'>
          <button type='button' class='button' disabled={i === 0} onClick={() => onMove(-1)}>
            Move up<span class='visually-hidden'>{` question ${n}`}</span>
          </button>
          <button type='button' class='button' disabled={i === count - 1} onClick={() => onMove(1)}>
            Move down<span class='visually-hidden'>{` question ${n}`}</span>
          </button>
          <button type='button' class='button danger' onClick={onRemove}>
            Remove<span class='visually-hidden'>{` question ${n}`}</span>
          </button>
        </div>
      </fieldset>
    </li>
  );
}
