// The form editor: the name, how reviews are verified, what is offered for a review, and the own questions, for a new form and an
// existing one alike; a refused save puts each of the API's messages next to its field.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, newIdempotencyKey, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { ErrorNotice, Field, Notice } from '../../ui/components.tsx';
import { useAction } from '../../ui/hooks.ts';
import { draftOfIncentive, incentiveOf } from '../../ui/incentive.ts';
import { IncentiveField } from '../../ui/incentive-field.tsx';
import { changeDraft, definitionOf, type Draft, draftOf, MAX_QUESTIONS, moveDraft, newDraft, SHOWN } from './drafts.ts';
import { Question } from './question.tsx';
import { MODES } from './words.ts';

type Form = Schemas['ReviewForm'];
type Mode = Form['verification_mode'];

export function Editor(
  { form, onSaved, onInput }: { form: Form | null; onSaved: (f: Form) => void; onInput: () => void },
) {
  const orgId = useOrgId();
  const [name, setName] = useState(form?.name ?? '');
  const [mode, setMode] = useState<Mode>(form?.verification_mode ?? 'email');
  const [active, setActive] = useState(true);
  const [incentive, setIncentive] = useState(() => draftOfIncentive(form?.incentive));
  const [fields, setFields] = useState<Draft[]>(() => (form?.custom_fields ?? []).map(draftOf));
  const ref = useRef<HTMLFormElement>(null);
  const focusNew = useRef(false);

  const save = useAction(async () => {
    const body = {
      name: name.trim(),
      verification_mode: mode,
      custom_fields: fields.map(definitionOf),
      incentive: incentiveOf(incentive),
    };
    const f = form
      ? await api.patch('/organizations/{orgId}/review-forms/{id}', { params: { orgId, id: form.id }, body })
      : await api.post('/organizations/{orgId}/review-forms', {
        params: { orgId },
        body: { ...body, is_active: active },
        headers: {
          'Idempotency-Key': newIdempotencyKey(),
        },
      });
    setFields(f.custom_fields.map(draftOf));
    onSaved(f);
    return f;
  });

  // After a refused save, the first field the API named has the focus.
  useEffect(() => {
    if (save.error) (ref.current?.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
  }, [save.error]);
  // A question just added: its label has the focus.
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    (document.getElementById(`f-custom_fields.${fields.length - 1}.label`) as HTMLElement | null)?.focus();
  }, [fields]);

  const changed = () => {
    onInput();
  };
  const update = (uid: number, change: Partial<Draft>) => {
    changed();
    setFields((fs) => fs.map((d) => (d.uid === uid ? changeDraft(d, change) : d)));
  };
  // Moving or removing renumbers the questions: the API's messages, by number, no longer apply.
  const restructure = (fn: (fs: Draft[]) => Draft[]) => {
    changed();
    save.clearError();
    setFields(fn);
  };
  const move = (i: number, by: number) => restructure((fs) => moveDraft(fs, i, by));
  const add = () => {
    focusNew.current = true;
    restructure((fs) => [...fs, newDraft()]);
  };

  const err = save.error;
  const unshown = err?.errors.filter((e) => !SHOWN.test(e.field)) ?? [];
  const invalid = err?.errors.length ?? 0;

  return (
    <form
      ref={ref}
      class='form-editor'
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <section class='card' aria-labelledby='details-heading'>
        <h2 id='details-heading'>Details</h2>
        <Field
          label='Name'
          name='name'
          error={err}
          hint='For you and your team; customers see your business name on the form.'
        >
          {(p) => (
            <input
              {...p}
              maxLength={200}
              value={name}
              onInput={(e) => {
                changed();
                setName(e.currentTarget.value);
              }}
            />
          )}
        </Field>
        <fieldset
          class='opt-choices'
          aria-describedby={err?.field('verification_mode') ? 'f-verification_mode-error' : undefined}
        >
          <legend>How reviews are verified</legend>
          {MODES.map((m) => (
            <label key={m.value} class='opt-choice'>
              <input
                type='radio'
                name='verification_mode'
                value={m.value}
                checked={mode === m.value}
                aria-describedby={`mode-${m.value}-text`}
                onChange={() => {
                  changed();
                  setMode(m.value);
                }}
              />
              <span>
                <strong>{m.label}</strong>
                <span class='hint' id={`mode-${m.value}-text`}>{m.text}</span>
              </span>
            </label>
          ))}
          {err?.field('verification_mode') && (
            <p class='field-error' id='f-verification_mode-error'>{err.field('verification_mode')}</p>
          )}
          {form && mode !== form.verification_mode && (
            <p class='hint'>The new way applies to reviews sent from now on; earlier reviews keep their status.</p>
          )}
        </fieldset>
        <IncentiveField
          value={incentive}
          error={err}
          onChange={(d) => {
            changed();
            setIncentive(d);
          }}
        />
        {form?.incentive && incentiveOf(incentive)?.description !== form.incentive.description && (
          <p class='hint'>Reviews written before keep the incentive they were written with.</p>
        )}
        {!form && (
          <label class='opt-check'>
            <input type='checkbox' checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
            <span>
              Take reviews as soon as the form is created
              <span class='hint'>Leave it off to prepare the form first; its link then says that it is closed.</span>
            </span>
          </label>
        )}
      </section>

      <section class='card' aria-labelledby='questions-heading'>
        <h2 id='questions-heading'>Your own questions</h2>
        <p class='muted small'>
          Every form asks for a star rating, a title, the review, and the reviewer's name and e-mail address. Add the
          questions you want answered as well, such as which product they bought.
        </p>
        {err?.field('custom_fields') && <p class='field-error'>{err.field('custom_fields')}</p>}
        {fields.length === 0 && <p class='muted'>No own questions yet.</p>}
        <ol class='questions'>
          {fields.map((d, i) => (
            <Question
              key={d.uid}
              draft={d}
              index={i}
              count={fields.length}
              error={err}
              onChange={(c) => update(d.uid, c)}
              onMove={(by) => move(i, by)}
              onRemove={() => restructure((fs) => fs.filter((x) => x.uid !== d.uid))}
            />
          ))}
        </ol>
        <button type='button' class='button' disabled={fields.length >= MAX_QUESTIONS} onClick={add}>
          Add a question
        </button>
        {fields.length >= MAX_QUESTIONS && <p class='hint'>A form can ask at most {MAX_QUESTIONS} questions.</p>}
      </section>

      {err && err.status === 422 && (
        <Notice tone='error'>
          The form is not saved: {invalid === 1 ? 'one answer needs' : `${invalid} answers need`}{' '}
          a change, as said next to {invalid === 1 ? 'it' : 'each'}.
          {unshown.length > 0 && (
            <ul>
              {unshown.map((e) => <li key={e.field}>{e.field}: {e.message}</li>)}
            </ul>
          )}
        </Notice>
      )}
      {err && err.status !== 422 && <ErrorNotice error={err} />}
      <div class='actions form-end'>
        <button type='submit' class='button primary' disabled={save.pending}>
          {save.pending ? 'Saving…' : form ? 'Save changes' : 'Create form'}
        </button>
      </div>
    </form>
  );
}
