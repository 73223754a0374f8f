// Sending one review request by e-mail: the customer, the form, and the options (a reference of
// your own, the language, a later time, an incentive), with one Idempotency-Key per request meant.
import { useRef, useState } from 'preact/hooks';
import { api, newIdempotencyKey, type Schemas } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, Field } from '../../ui/components.tsx';
import { useAction } from '../../ui/hooks.ts';
import { draftOfIncentive, incentiveOf } from '../../ui/incentive.ts';
import { IncentiveField } from '../../ui/incentive-field.tsx';
import { fieldOfConflict } from './refusals.ts';
import { localNow, toIso } from './send-time.ts';

type ReviewForm = Schemas['ReviewForm'];
type ReviewRequest = Schemas['ReviewRequest'];

export function SendOne({ forms, onSent }: { forms: ReviewForm[]; onSent: (r: ReviewRequest) => void }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const active = forms.filter((f) => f.is_active);
  const empty = { email: '', name: '', order_id: '', external_id: '', locale: 'en', send_at: '' };
  const [v, setV] = useState(empty);
  const [formId, setFormId] = useState(active[0]?.id ?? '');
  const [incentive, setIncentive] = useState(() => draftOfIncentive(null));
  // One key per request the person means to send: a retry of the same (after a lost answer) sends
  // nothing twice; a change makes it another request.
  const key = useRef(newIdempotencyKey());
  const set = (k: keyof typeof empty) => (e: Event) => {
    key.current = newIdempotencyKey();
    setV({ ...v, [k]: (e.currentTarget as HTMLInputElement).value });
  };
  const send = useAction(async () => {
    const body = {
      email: v.email.trim(),
      name: v.name.trim(),
      form_id: formId,
      order_id: v.order_id.trim() || undefined,
      external_id: v.external_id.trim() || undefined,
      locale: v.locale,
      send_at: toIso(v.send_at),
      incentive: incentiveOf(incentive),
    };
    const r = await api.post('/organizations/{orgId}/review-requests', {
      params: { orgId },
      body,
      headers: { 'idempotency-key': key.current },
    }).catch((e) => {
      throw fieldOfConflict(e);
    });
    key.current = newIdempotencyKey();
    setV({ ...empty, locale: v.locale });
    onSent(r);
    (document.getElementById('f-email') as HTMLInputElement | null)?.focus();
  });
  if (active.length === 0) {
    return (
      <section class='card' aria-labelledby='send-one'>
        <h2 id='send-one'>Send a review request</h2>
        <p>
          A request invites your customer to one of your review forms, and you have no active form yet.{' '}
          <a href={appPath('/forms')}>Create a review form</a> first.
        </p>
      </section>
    );
  }
  const fieldError = (name: string) => send.error?.field(name) ? send.error : undefined;
  const general = send.error && ![
    'email',
    'name',
    'form_id',
    'order_id',
    'external_id',
    'locale',
    'send_at',
    'incentive.type',
    'incentive.description',
  ].some((f) => send.error!.field(f));
  const moreOpen = ['external_id', 'send_at', 'incentive.type', 'incentive.description']
    .some((f) => send.error?.field(f));

  return (
    <section class='card' aria-labelledby='send-one'>
      <h2 id='send-one'>Send a review request</h2>
      <form
        class='send-form'
        onSubmit={(e) => {
          e.preventDefault();
          void send.run();
        }}
      >
        {general && <ErrorNotice error={send.error} />}
        <div class='field-grid'>
          <Field label="Customer's e-mail" name='email' error={fieldError('email')}>
            {(p) => (
              <input
                {...p}
                type='email'
                required
                maxLength={320}
                autoComplete='off'
                value={v.email}
                onInput={set('email')}
              />
            )}
          </Field>
          <Field
            label="Customer's name"
            name='name'
            error={fieldError('name')}
            hint='Used to greet them in the e-mail.'
          >
            {(p) => <input {...p} required maxLength={200} autoComplete='off' value={v.name} onInput={set('name')} />}
          </Field>
          <Field
            label='Order reference (optional)'
            name='order_id'
            error={fieldError('order_id')}
            hint='Carried to the review; forms that check purchases verify the review with it.'
          >
            {(p) => <input {...p} maxLength={200} value={v.order_id} onInput={set('order_id')} />}
          </Field>
          <Field label='Review form' name='form_id' error={fieldError('form_id')}>
            {(p) => (
              <select
                {...p}
                required
                value={formId}
                onChange={(e) => {
                  key.current = newIdempotencyKey();
                  setFormId(e.currentTarget.value);
                }}
              >
                {active.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
              </select>
            )}
          </Field>
        </div>
        <details class='more-options' open={moreOpen}>
          <summary>More options: your reference, language, sending later, an incentive</summary>
          <div class='field-grid'>
            <Field
              label='Your reference (optional)'
              name='external_id'
              error={fieldError('external_id')}
              hint='An id of your own system. A second request with the same reference is refused, so nobody is asked twice for one order.'
            >
              {(p) => <input {...p} maxLength={200} value={v.external_id} onInput={set('external_id')} />}
            </Field>
            <Field label='Language of the e-mail' name='locale' error={fieldError('locale')}>
              {(p) => (
                <select {...p} value={v.locale} onChange={set('locale')}>
                  <option value='en'>English</option>
                  <option value='de'>German</option>
                </select>
              )}
            </Field>
            <Field
              label='Send at (optional)'
              name='send_at'
              error={fieldError('send_at')}
              hint='Your local time, at most 90 days ahead. Empty: now.'
            >
              {(p) => (
                <input
                  {...p}
                  type='datetime-local'
                  min={localNow()}
                  value={v.send_at}
                  onInput={set('send_at')}
                />
              )}
            </Field>
            <IncentiveField
              value={incentive}
              error={send.error}
              onChange={(d) => {
                key.current = newIdempotencyKey();
                setIncentive(d);
              }}
            />
          </div>
        </details>
        <div class='actions'>
          <button type='submit' class='button primary' disabled={send.pending}>
            {send.pending ? 'Sending…' : v.send_at ? 'Schedule request' : 'Send request'}
          </button>
        </div>
      </form>
    </section>
  );
}
