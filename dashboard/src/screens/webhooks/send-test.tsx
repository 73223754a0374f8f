// Sending a test event (a ping or a sample of a real event) to an endpoint, once, now.
import { useState } from 'preact/hooks';
import { api, type BodyOf, type ItemIds, type Schemas } from '../../api.ts';
import { ErrorNotice, Field, Notice } from '../../ui/components.tsx';
import { useAction } from '../../ui/hooks.ts';
import { EVENTS } from './words.ts';

type Delivery = Schemas['WebhookDelivery'];
type TestEvent = NonNullable<BodyOf<'/organizations/{orgId}/webhooks/{id}/test', 'post'>['event']>;

export function SendTest({ ids, enabled, onSent }: { ids: ItemIds; enabled: boolean; onSent: () => void }) {
  const [event, setEvent] = useState<TestEvent>('webhook.test');
  const [result, setResult] = useState<Delivery>();
  const send = useAction(async () => {
    setResult(undefined);
    const d = await api.post('/organizations/{orgId}/webhooks/{id}/test', {
      params: ids,
      body: event === 'webhook.test' ? {} : { event },
    });
    setResult(d);
    onSent();
  });
  const last = result?.attempt_log.at(-1);
  return (
    <section class='card' aria-labelledby='test-title'>
      <h2 id='test-title'>Send a test event</h2>
      <p class='muted small'>Sent once, now, signed like a real one. It is not retried.</p>
      <ErrorNotice error={send.error} />
      {result && (
        <Notice tone={result.status === 'succeeded' ? 'success' : 'error'}>
          {result.status === 'succeeded'
            ? `Delivered: your endpoint answered ${result.last_status_code}${last ? ` in ${last.duration_ms} ms` : ''}.`
            : `Not delivered: ${
              result.last_status_code ? `your endpoint answered ${result.last_status_code}` : result.last_error
            }.`}
        </Notice>
      )}
      <Field label='Event' name='test-event'>
        {(p) => (
          <select {...p} value={event} onChange={(e) => setEvent(e.currentTarget.value as TestEvent)}>
            <option value='webhook.test'>webhook.test (a ping)</option>
            {EVENTS.map((ev) => <option key={ev.value} value={ev.value}>{ev.value} (a sample)</option>)}
          </select>
        )}
      </Field>
      <button type='button' class='button primary' disabled={send.pending || !enabled} onClick={() => void send.run()}>
        {send.pending ? 'Sending…' : 'Send test event'}
      </button>
      {!enabled && <p class='hint'>Turn the endpoint on to send a test.</p>}
    </section>
  );
}
