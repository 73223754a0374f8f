// One delivery: its facts, each attempt with what the endpoint answered, the body, and redelivery.
import { useEffect, useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/components.tsx';
import { formatDateTime, formatNumber } from '../../ui/format.ts';
import { useAction, useLoad, usePolling } from '../../ui/hooks.ts';
import { DeliveryBadge } from './badges.tsx';
import { prettyJson, responseText } from './words.ts';

type Webhook = Schemas['Webhook'];
type Delivery = Schemas['WebhookDelivery'];
type DeliveryDetail = Schemas['WebhookDeliveryDetail'];
type Attempt = Schemas['WebhookAttempt'];

export function DeliveryPanel({ ids, hook, id, onChange }: {
  ids: ItemIds;
  hook: Webhook;
  id: string;
  onChange: () => void;
}) {
  const at = { ...ids, deliveryId: id };
  const detail = useLoad(
    (signal) => api.get('/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}', { params: at, signal }),
    [ids.orgId, ids.id, id],
  );
  const [queued, setQueued] = useState(0);
  const d = detail.data;
  usePolling(d?.status === 'pending', detail.reload, queued);
  useEffect(() => {
    document.getElementById('delivery-title')?.focus();
  }, [id]);
  const redeliver = useAction(async () => {
    const again = await api.post('/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      params: at,
    });
    if (d) detail.set({ ...d, ...again });
    setQueued((n) => n + 1);
    onChange();
  });
  const back = (
    <button type='button' class='link' onClick={() => setQuery({ delivery: null }, false)}>
      Back to all deliveries
    </button>
  );

  return (
    <section class='card' aria-labelledby='delivery-title'>
      <p class='small'>{back}</p>
      <h2 id='delivery-title' tabIndex={-1}>
        Delivery {d ? <code>{d.event}</code> : ''}
      </h2>
      <ErrorNotice error={detail.error} />
      {!d && !detail.error && <Loading what='Loading the delivery' />}
      {d && (
        <>
          {queued > 0 && d.status === 'pending' && (
            <Notice>
              Queued again: it is sent in a moment with the same webhook-id, so your endpoint can spot a repeat.
            </Notice>
          )}
          {queued > 0 && d.status !== 'pending' && (
            <Notice tone={d.status === 'succeeded' ? 'success' : 'error'}>
              Redelivered: {d.status === 'succeeded' ? 'delivered' : 'failed again'} ({responseText(d)}).
            </Notice>
          )}
          <dl class='facts'>
            <dt>Status</dt>
            <dd>
              <DeliveryBadge status={d.status} /> {d.is_test && <Badge tone='plain'>test</Badge>}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(d.created_at)}</dd>
            {d.delivered_at && (
              <>
                <dt>Delivered</dt>
                <dd>{formatDateTime(d.delivered_at)}</dd>
              </>
            )}
            {d.next_attempt_at && d.status === 'pending' && (
              <>
                <dt>Next attempt</dt>
                <dd>{formatDateTime(d.next_attempt_at)}</dd>
              </>
            )}
            <dt>Attempts</dt>
            <dd>{formatNumber(d.attempts)}</dd>
            <dt>webhook-id</dt>
            <dd>
              <code>{d.message_id}</code>
            </dd>
          </dl>
          <ErrorNotice error={redeliver.error} />
          <div class='actions'>
            <button
              type='button'
              class='button primary'
              disabled={redeliver.pending || d.status === 'pending' || !hook.enabled}
              onClick={() => void redeliver.run()}
            >
              {redeliver.pending ? 'Queuing…' : 'Redeliver'}
            </button>
          </div>
          <p class='hint'>
            {!hook.enabled
              ? 'Turn the endpoint on to redeliver.'
              : d.status === 'pending'
              ? 'It is queued; you can redeliver it once this attempt is over.'
              : 'Sends the same body again, now, and restarts its retries.'}
          </p>

          <h3>Attempts</h3>
          {d.attempt_log.length === 0 && <p class='muted'>No attempt yet.</p>}
          <ol class='attempts'>
            {d.attempt_log.map((a) => <AttemptItem key={`${a.attempt}-${a.created_at}`} a={a} />)}
          </ol>

          <h3>Request body</h3>
          <pre class='code-block' tabIndex={0} aria-label='Request body'>{prettyJson(d.payload)}</pre>
        </>
      )}
    </section>
  );
}

function AttemptItem({ a }: { a: Attempt }) {
  const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
  return (
    <li>
      <p class='dev-row-head'>
        <strong>Attempt {a.attempt}</strong>
        <Badge tone={ok ? 'good' : 'bad'}>{ok ? 'Succeeded' : 'Failed'}</Badge>
        <span class='muted small'>
          {formatDateTime(a.created_at)} · {formatNumber(a.duration_ms)} ms
        </span>
      </p>
      <p class='small'>
        {a.status_code !== null ? `Answered HTTP ${a.status_code}` : 'No answer'}
        {a.error ? `: ${a.error}` : ''}
      </p>
      {a.response_snippet && (
        <pre
          class='code-block snippet'
          tabIndex={0}
          aria-label={`Response to attempt ${a.attempt}`}
        >{a.response_snippet}</pre>
      )}
    </li>
  );
}
