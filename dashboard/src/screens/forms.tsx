// Review forms: the pages where customers write a review. The list shows each form's link to share
// (copy or open it), how its reviews are verified and whether it takes reviews; a form's page edits
// its name, verification and own questions, switches it off or deletes it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Page, type Schemas } from '../api.ts';
import { navigate, setQuery, useLocation } from '../router.ts';
import { useAppPath, useOrgPath } from '../session.ts';
import {
  Badge,
  CopyField,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  Notice,
  PageHeader,
  Pager,
  useCopy,
} from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { TextAreaField, TextField } from '../ui/fields.tsx';
import { formatDate } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';

type Form = Schemas['ReviewForm'];
type FieldDef = Schemas['CustomFieldDefinition'];
type Mode = Form['verification_mode'];
type FieldType = FieldDef['type'];

/** Each verification mode in the words of a shop owner. */
const MODES: { value: Mode; label: string; text: string }[] = [
  {
    value: 'email',
    label: 'Confirm by e-mail',
    text: 'The reviewer gets an e-mail with a link; the review goes public as verified once they click it.',
  },
  {
    value: 'purchase_proof',
    label: 'Order number',
    text:
      'The reviewer gives their order number; a match with the orders you loaded verifies the review, otherwise it waits for your approval.',
  },
  {
    value: 'manual',
    label: 'You approve each review',
    text: 'Every review waits in your inbox until you approve it; nothing is public before.',
  },
  {
    value: 'none',
    label: 'No verification',
    text: 'Reviews go public at once, marked as not verified.',
  },
];
const MODE_LABEL = Object.fromEntries(MODES.map((m) => [m.value, m.label])) as Record<Mode, string>;

const TYPES: [FieldType, string][] = [
  ['text', 'Short text'],
  ['textarea', 'Long text'],
  ['number', 'Number'],
  ['select', 'Choice from a list'],
  ['boolean', 'Yes or no (a checkbox)'],
];

const MAX_QUESTIONS = 50;

/** A message for the next screen to show once (after creating or deleting a form). */
let flash = '';
function takeFlash(): string {
  const f = flash;
  flash = '';
  return f;
}

const questions = (n: number) => (n === 0 ? 'No own questions' : n === 1 ? '1 own question' : `${n} own questions`);

export function Forms(_: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = query.get('page') ?? '';
  const list = useLoad(
    (signal) => api.get<Page<Form>>(orgPath('/review-forms'), { page, limit: 20 }, signal),
    [orgPath(), page],
  );
  const [notice, setNotice] = useState('');
  useEffect(() => setNotice(takeFlash()), []);

  return (
    <>
      <PageHeader title='Review forms'>
        <a class='button primary' href={appPath('/forms/new')}>New form</a>
      </PageHeader>
      <p class='muted page-intro'>
        A form is a page where customers write a review of your business. Share its link in e-mails, on receipts or on
        your site; review requests send a form's link too.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading forms' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          <p>No forms yet. Create one to get a link where customers can write their review.</p>
          <a class='button primary' href={appPath('/forms/new')}>Create your first form</a>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='form-list' aria-busy={list.loading}>
            {list.data.data.map((f) => (
              <li key={f.id} class='form-row'>
                <div class='form-row-head'>
                  <a class='form-name' href={appPath(`/forms/${f.id}`)}>{f.name}</a>
                  <Badge tone={f.is_active ? 'good' : 'plain'}>{f.is_active ? 'Active' : 'Inactive'}</Badge>
                </div>
                <p class='review-meta'>
                  <span>Verification: {MODE_LABEL[f.verification_mode]}</span>
                  <span>{questions(f.custom_fields.length)}</span>
                  <span>Created {formatDate(f.created_at)}</span>
                </p>
                <div class='form-link'>
                  <span class='visually-hidden'>Link to {f.name}:</span>
                  <code class='form-url'>{f.submission_url}</code>
                  <span class='form-link-actions'>
                    <CopyButton value={f.submission_url} what={`the link to ${f.name}`} />
                    <a class='button' href={f.submission_url} target='_blank' rel='noopener'>
                      Open<span class='visually-hidden'>{` ${f.name} in a new tab`}</span>
                    </a>
                  </span>
                </div>
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

/** A "Copy link" button for one of several links on a page (CopyField is for one labelled value). */
function CopyButton({ value, what }: { value: string; what: string }) {
  const [copied, copy] = useCopy(value, () => globalThis.prompt?.('Copy this link:', value));
  return (
    <>
      <button type='button' class='button' onClick={copy}>
        {copied ? 'Copied' : 'Copy link'}
        <span class='visually-hidden'>{` to ${what.replace(/^the link to /, '')}`}</span>
      </button>
      <span class='visually-hidden' aria-live='polite'>{copied ? `Copied ${what}` : ''}</span>
    </>
  );
}

/** One question of the editor: the definition as typed, and whether its key still follows the label. */
interface Draft {
  uid: number;
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** One choice per line. */
  options: string;
  keyEdited: boolean;
  /** Saved before: reviews may already hold answers under its key. */
  stored: boolean;
}

let uids = 0;

function draftOf(f: FieldDef): Draft {
  return {
    uid: ++uids,
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    options: (f.options ?? []).join('\n'),
    keyEdited: true,
    stored: true,
  };
}

/** The key a label suggests: lower-case letters, digits and _, starting with a letter, at most 50. */
export function keyOf(label: string): string {
  let k = label.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (k && !/^[a-z]/.test(k)) k = `q_${k}`;
  return k.slice(0, 50).replace(/_+$/, '');
}

function definitionOf(d: Draft): FieldDef {
  const options = d.options.split('\n').map((o) => o.trim()).filter(Boolean);
  return {
    key: d.key.trim(),
    label: d.label.trim(),
    type: d.type,
    required: d.required,
    ...(d.type === 'select' && options.length ? { options } : {}),
  };
}

/** The API's field names this page shows at a control; anything else goes in the summary. */
const SHOWN = /^(name|verification_mode|custom_fields(\.\d+\.(key|label|type|required|options(\.\d+)?))?)$/;

export function FormPage({ params }: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const isNew = params.id === 'new';
  const path = orgPath(`/review-forms/${params.id}`);
  const loaded = useLoad(
    (signal) => (isNew ? Promise.resolve(null) : api.get<Form>(path, undefined, signal)),
    [path],
  );
  const [notice, setNotice] = useState('');
  // The same screen stays mounted from /forms/new to the new form's page: its message comes with the id.
  useEffect(() => setNotice(takeFlash()), [params.id]);

  if (loaded.error) {
    return (
      <>
        <p class='breadcrumb'>
          <a href={appPath('/forms')}>Review forms</a>
        </p>
        <h1 tabIndex={-1}>Review form</h1>
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  if (!isNew && !loaded.data) return <Loading what='Loading the form' />;
  const form = loaded.data ?? null;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/forms')}>Review forms</a>
      </p>
      <PageHeader title={form ? form.name : 'New review form'} />
      {notice && <Notice tone='success'>{notice}</Notice>}
      {form && (
        <Sharing
          form={form}
          path={path}
          onChange={(f, what) => {
            loaded.set(f);
            setNotice(what);
          }}
        />
      )}
      <Editor
        key={form?.id ?? 'new'}
        form={form}
        onSaved={(f) => {
          if (form) {
            loaded.set(f);
            setNotice('Your changes are saved. The form asks them from now on.');
          } else {
            flash = 'The form is created. Share its link to start collecting reviews.';
            navigate(appPath(`/forms/${f.id}`), true);
          }
        }}
        onInput={() => setNotice('')}
      />
      {form && <Delete form={form} path={path} />}
    </>
  );
}

/** The link to share, and switching the form on or off (off asks first). */
function Sharing({ form, path, onChange }: { form: Form; path: string; onChange: (f: Form, what: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const toggle = useAction(async (active: boolean) => {
    const f = await api.patch<Form>(path, { is_active: active });
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

function Editor(
  { form, onSaved, onInput }: { form: Form | null; onSaved: (f: Form) => void; onInput: () => void },
) {
  const orgPath = useOrgPath();
  const [name, setName] = useState(form?.name ?? '');
  const [mode, setMode] = useState<Mode>(form?.verification_mode ?? 'email');
  const [active, setActive] = useState(true);
  const [fields, setFields] = useState<Draft[]>(() => (form?.custom_fields ?? []).map(draftOf));
  const ref = useRef<HTMLFormElement>(null);
  const focusNew = useRef(false);

  const save = useAction(async () => {
    const body = { name: name.trim(), verification_mode: mode, custom_fields: fields.map(definitionOf) };
    const f = form
      ? await api.patch<Form>(orgPath(`/review-forms/${form.id}`), body)
      : await api.post<Form>(orgPath('/review-forms'), { ...body, is_active: active }, {
        'Idempotency-Key': crypto.randomUUID(),
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
    setFields((fs) =>
      fs.map((d) => {
        if (d.uid !== uid) return d;
        const next = { ...d, ...change };
        if (change.label !== undefined && !d.keyEdited) next.key = keyOf(change.label);
        return next;
      })
    );
  };
  // Moving or removing renumbers the questions: the API's messages, by number, no longer apply.
  const restructure = (fn: (fs: Draft[]) => Draft[]) => {
    changed();
    save.clearError();
    setFields(fn);
  };
  const move = (i: number, by: number) =>
    restructure((fs) => {
      const next = [...fs];
      [next[i], next[i + by]] = [next[i + by], next[i]];
      return next;
    });
  const add = () => {
    focusNew.current = true;
    restructure((fs) => [...fs, {
      uid: ++uids,
      key: '',
      label: '',
      type: 'text',
      required: false,
      options: '',
      keyEdited: false,
      stored: false,
    }]);
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

function Question(
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
  // The options' problem, whether the API named the list or one of its choices.
  const optionsProblem = error?.errors.find((e) =>
    e.field === `${base}.options` || e.field.startsWith(`${base}.options.`)
  );
  const optionsError = optionsProblem
    ? new ApiError(422, '', [{ ...optionsProblem, field: `${base}.options` }])
    : undefined;
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
        {d.type === 'select' && (
          <TextAreaField
            label='Choices'
            name={`${base}.options`}
            error={optionsError}
            hint='One per line, in the order the customer sees them.'
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

function Delete({ form, path }: { form: Form; path: string }) {
  const appPath = useAppPath();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await api.delete(path);
    flash = `The form “${form.name}” is deleted. The reviews it collected are kept.`;
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
