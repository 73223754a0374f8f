// The questions of the form editor as typed: a draft per question whose key follows its label until
// the key is edited, and the definitions the API takes. Pure, so that Node tests it.
import { ApiError, type Schemas } from '../../api.ts';

type FieldDef = Schemas['CustomFieldDefinition'];
type FieldType = FieldDef['type'];

export const MAX_QUESTIONS = 50;

/** One question of the editor: the definition as typed, and whether its key still follows the label. */
export interface Draft {
  uid: number;
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** One choice per line (a list's choices, or a scale's labels in order). */
  options: string;
  keyEdited: boolean;
  /** Saved before: reviews may already hold answers under its key. */
  stored: boolean;
}

let uids = 0;

/** A question saved before, as the editor shows it. */
export function draftOf(f: FieldDef): Draft {
  return {
    uid: ++uids,
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    options: (f.options ?? f.scale ?? []).join('\n'),
    keyEdited: true,
    stored: true,
  };
}

/** A question just added: no key yet, which then follows the label. */
export function newDraft(): Draft {
  return {
    uid: ++uids,
    key: '',
    label: '',
    type: 'text',
    required: false,
    options: '',
    keyEdited: false,
    stored: false,
  };
}

/** A change to a draft; a new label also changes a key that was never edited. */
export function changeDraft(d: Draft, change: Partial<Draft>): Draft {
  const next = { ...d, ...change };
  if (change.label !== undefined && !d.keyEdited) next.key = keyOf(change.label);
  return next;
}

/** The drafts with the question at `i` moved `by` places (-1 up, 1 down). */
export function moveDraft(drafts: Draft[], i: number, by: number): Draft[] {
  const next = [...drafts];
  [next[i], next[i + by]] = [next[i + by], next[i]];
  return next;
}

/** The key a label suggests: lower-case letters, digits and _, starting with a letter, at most 50. */
export function keyOf(label: string): string {
  let k = label.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (k && !/^[a-z]/.test(k)) k = `q_${k}`;
  return k.slice(0, 50).replace(/_+$/, '');
}

/** A draft as the API takes it: trimmed, choices one per line, only a list's choices or a scale's labels sent. */
export function definitionOf(d: Draft): FieldDef {
  const options = d.options.split('\n').map((o) => o.trim()).filter(Boolean);
  return {
    key: d.key.trim(),
    label: d.label.trim(),
    type: d.type,
    required: d.required,
    ...(d.type === 'select' && options.length ? { options } : {}),
    ...(d.type === 'scale' && options.length ? { scale: options } : {}),
  };
}

/** The API's field names this page shows at a control; anything else goes in the summary. */
export const SHOWN =
  /^(name|verification_mode|incentive\.(type|description)|custom_fields(\.\d+\.(key|label|type|required|options(\.\d+)?|scale(\.\d+)?))?)$/;

/**
 * The problem of a question's choices (`options`, or a scale's `scale`), whether the API named the
 * list or one of its choices, as the list's.
 */
export function optionsErrorOf(
  error: ApiError | undefined,
  base: string,
  list: 'options' | 'scale' = 'options',
): ApiError | undefined {
  const problem = error?.errors.find((e) => e.field === `${base}.${list}` || e.field.startsWith(`${base}.${list}.`));
  return problem ? new ApiError(422, '', [{ ...problem, field: `${base}.${list}` }]) : undefined;
}
