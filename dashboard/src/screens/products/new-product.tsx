// Adding one product by hand: its own id, its name and the optional fields; the API's message is
// shown under the field it names (a taken id, a wrong check digit), and the new product's page opens.
import { useMemo, useState } from 'preact/hooks';
import { api, newIdempotencyKey, type Schemas } from '../../api.ts';
import { navigate } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, PageHeader } from '../../ui/components.tsx';
import { useAction } from '../../ui/hooks.ts';
import { formValues, ProductFields } from './product-form.tsx';

export function NewProduct(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const [values, setValues] = useState(formValues());
  // One key per product meant: a double click or a retry after a lost answer adds it once, and a
  // corrected form is another request with a key of its own.
  const key = useMemo(newIdempotencyKey, [JSON.stringify(values)]);
  const add = useAction(async () => {
    const body = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''),
    ) as Schemas['ProductInput'];
    const created = await api.post('/organizations/{orgId}/products', {
      params: { orgId },
      body,
      headers: { 'idempotency-key': key },
    });
    navigate(appPath(`/products/${created.id}?added=1`));
  });
  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/products')}>Products</a>
      </p>
      <PageHeader title='Add product' />
      <form
        class='card narrow-card'
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void add.run();
        }}
      >
        {add.error && <ErrorNotice error={add.error} />}
        <ProductFields
          withExternalId
          values={values}
          onValue={(k, v) => setValues({ ...values, [k]: v })}
          error={add.error}
        />
        <div class='actions'>
          <button type='submit' class='button primary' disabled={add.pending}>
            {add.pending ? 'Adding…' : 'Add product'}
          </button>
          <a class='button' href={appPath('/products')}>Cancel</a>
        </div>
      </form>
    </>
  );
}
