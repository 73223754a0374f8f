// A product's fields in a form, for adding one and for changing one: each field labelled with its
// rule, and the API's message shown under the field it names.
import type { ApiError } from '../../api.ts';
import { TextField } from '../../ui/fields.tsx';
import { FIELD_BY_KEY, type ProductKey } from './fields.ts';

export type FormValues = Record<ProductKey, string>;

const HINTS: Partial<Record<ProductKey, string>> = {
  external_id: 'Your own id of the product, as your shop knows it: uploads and syncs find the product by it.',
  url: 'Its page in your shop, starting with https:// or http://',
  image_url: 'A link to its picture, starting with https:// or http://; pages show it over https',
  gtin: 'The barcode number: 8, 12, 13 or 14 digits.',
  group: 'Give variants of one product (sizes, colours) the same group.',
};

/** The fields, in the form's order; the product's own id only when adding one. */
const LAYOUT: ProductKey[][] = [['name'], ['url', 'image_url'], ['sku', 'gtin'], ['mpn', 'brand'], ['group']];

export function ProductFields({ values, onValue, error, withExternalId }: {
  values: FormValues;
  onValue: (key: ProductKey, value: string) => void;
  error?: ApiError;
  withExternalId?: boolean;
}) {
  const field = (key: ProductKey) => {
    const f = FIELD_BY_KEY[key];
    return (
      <TextField
        key={key}
        label={f.required ? f.label : `${f.label} (optional)`}
        name={key}
        error={error}
        hint={HINTS[key]}
        type={f.kind === 'url' ? 'url' : 'text'}
        inputMode={f.kind === 'gtin' ? 'numeric' : undefined}
        required={f.required}
        maxLength={f.max}
        value={values[key]}
        onValue={(v) => onValue(key, v)}
      />
    );
  };
  return (
    <>
      {withExternalId && field('external_id')}
      {LAYOUT.map((row) => <div key={row.join()} class='field-grid'>{row.map(field)}</div>)}
    </>
  );
}

/** The form's values for a product (empty for a new one). */
export function formValues(p?: Partial<Record<ProductKey, string | null>>): FormValues {
  const keys: ProductKey[] = ['external_id', 'name', 'url', 'image_url', 'sku', 'gtin', 'mpn', 'brand', 'group'];
  return Object.fromEntries(keys.map((k) => [k, p?.[k] ?? ''])) as FormValues;
}
