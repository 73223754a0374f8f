// The automation of review requests from orders: on or off, on which event, after how many days,
// on which form, and the products never asked about (picked from the catalog).
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { ErrorNotice, Loading, Notice } from '../../ui/components.tsx';
import { CheckboxField, ChoiceGroup, NumberField, SelectField } from '../../ui/fields.tsx';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { ProductPicker } from '../../ui/product-picker.tsx';
import { useForms } from '../../ui/use-forms.ts';
import { TRIGGERS } from './words.ts';

type Automation = Schemas['ReviewRequestAutomation'];
type Trigger = Automation['trigger'];

export function AutomationSettings() {
  const orgId = useOrgId();
  const forms = useForms();
  const current = useLoad(
    (signal) => api.get('/organizations/{orgId}/review-requests/automation', { params: { orgId }, signal }),
    [orgId],
  );
  const [draft, setDraft] = useState<Automation & { delay: string }>();
  const [saved, setSaved] = useState(false);
  const [picking, setPicking] = useState('');
  useEffect(() => {
    if (current.data) setDraft({ ...current.data, delay: String(current.data.delay_days) });
  }, [current.data]);
  const save = useAction(async () => {
    const a = await api.patch('/organizations/{orgId}/review-requests/automation', {
      params: { orgId },
      body: {
        enabled: draft!.enabled,
        trigger: draft!.trigger,
        delay_days: Number(draft!.delay),
        form_id: draft!.form_id,
        exclude_products: draft!.exclude_products,
      },
    });
    current.set(a);
    setSaved(true);
  });
  const edit = (patch: Partial<NonNullable<typeof draft>>) => {
    setSaved(false);
    setDraft({ ...draft!, ...patch });
  };
  // The picker answers a product's id; the automation keeps its external id.
  const exclude = async (productId: string) => {
    setPicking(productId);
    if (!productId) return;
    const p = await api.get('/organizations/{orgId}/products/{id}', { params: { orgId, id: productId } });
    if (!draft!.exclude_products.includes(p.external_id)) {
      edit({ exclude_products: [...draft!.exclude_products, p.external_id] });
    }
    setPicking('');
  };

  return (
    <form
      class='card automation'
      aria-labelledby='automation-title'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2 id='automation-title'>Ask every customer automatically</h2>
      <ErrorNotice error={current.error} />
      {!draft && !current.error && <Loading what='Loading the automation' />}
      {draft && (
        <>
          {saved && <Notice tone='success'>Saved.</Notice>}
          {save.error && !save.error.field('form_id') && !save.error.field('delay_days') && (
            <ErrorNotice error={save.error} />
          )}
          <CheckboxField
            id='automation-enabled'
            label='Send a review request for every order from my connected shops'
            checked={draft.enabled}
            onChecked={(enabled) => edit({ enabled })}
          />
          <ChoiceGroup<Trigger>
            legend='Start counting'
            name='trigger'
            value={draft.trigger}
            choices={TRIGGERS}
            onValue={(trigger) => edit({ trigger })}
          />
          <NumberField
            label='Days to wait after that'
            name='delay_days'
            error={save.error}
            hint='0 to 90. Long enough for the customer to have used what they bought.'
            min={0}
            max={90}
            required
            value={draft.delay}
            onValue={(delay) => edit({ delay })}
          />
          <SelectField
            label='Review form'
            name='form_id'
            error={save.error}
            value={draft.form_id ?? ''}
            onValue={(v) => edit({ form_id: v || null })}
            hint='The form customers write their review on.'
            options={[
              ...(draft.form_id ? [] : [['', 'Choose a form'] as const]),
              ...(forms.data?.data ?? []).map((f) => [f.id, f.name] as const),
            ]}
          />
          <fieldset class='excluded'>
            <legend>Products never asked about</legend>
            {draft.exclude_products.length === 0 && <p class='hint'>None: every product can be asked about.</p>}
            {draft.exclude_products.length > 0 && (
              <ul class='chip-list'>
                {draft.exclude_products.map((id) => (
                  <li key={id}>
                    <code>{id}</code>{' '}
                    <button
                      type='button'
                      class='button small'
                      onClick={() => edit({ exclude_products: draft.exclude_products.filter((x) => x !== id) })}
                    >
                      Remove<span class='visually-hidden'>{` ${id}`}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <ProductPicker label='Exclude a product' value={picking} onPick={(id) => void exclude(id)} />
          </fieldset>
          <button type='submit' class='button primary' disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save automation'}
          </button>
        </>
      )}
    </form>
  );
}
