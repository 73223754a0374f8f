// One webhook endpoint: its state, the delivery log (or one delivery), a test event, the secret's
// rotation, turning it off or deleting it, and its settings.
import { useState } from 'preact/hooks';
import { api, type ItemIds } from '../../api.ts';
import { useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, Loading, Notice } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { Health } from './badges.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { DeliveryPanel } from './delivery-panel.tsx';
import { EndpointForm } from './endpoint-form.tsx';
import { OnOff } from './on-off.tsx';
import { SendTest } from './send-test.tsx';
import { SigningSecret } from './signing-secret.tsx';
import { disabledWhy } from './words.ts';

export function WebhookPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const ids: ItemIds = { orgId, id: params.id };
  const hook = useLoad(
    (signal) => api.get('/organizations/{orgId}/webhooks/{id}', { params: ids, signal }),
    [orgId, params.id],
  );
  const { query } = useLocation();
  const deliveryId = query.get('delivery');
  const [logTick, setLogTick] = useState(0);

  if (hook.error) {
    return (
      <>
        <h1 tabIndex={-1}>Webhook endpoint</h1>
        <ErrorNotice error={hook.error} />
        <p>
          <a href={appPath('/developers/webhooks')}>Back to the webhooks</a>
        </p>
      </>
    );
  }
  if (!hook.data) return <Loading what='Loading the endpoint' />;
  const w = hook.data;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/developers/webhooks')}>Webhooks</a>
      </p>
      <header class='page-header'>
        <h1 tabIndex={-1} class='url-title'>{w.url}</h1>
      </header>
      <p class='dev-row-head hook-summary'>
        <Health hook={w} />
        <span class='muted'>{w.description || 'No description'}</span>
      </p>
      {!w.enabled && (
        <Notice tone='error'>
          This endpoint is off since {formatDateTime(w.disabled_at)}:{' '}
          {disabledWhy(w.disabled_reason)}. It receives nothing until you turn it on again.
        </Notice>
      )}
      {w.enabled && w.failing_since && (
        <Notice tone='error'>
          Every delivery has failed since{' '}
          {formatDateTime(w.failing_since)}. Until one succeeds, deliveries go one at a time; after 5 days of failures
          the endpoint is turned off. The log below shows what your endpoint answered.
        </Notice>
      )}
      {w.enabled && !w.failing_since && w.slow_since && (
        <Notice>
          Your endpoint has been slow to answer since{' '}
          {formatDateTime(w.slow_since)}. Answer quickly (under 5 seconds) and do the work afterwards.
        </Notice>
      )}
      <div class='hook-grid'>
        <div class='hook-log'>
          {deliveryId
            ? <DeliveryPanel ids={ids} hook={w} id={deliveryId} onChange={() => setLogTick((t) => t + 1)} />
            : <DeliveryLog ids={ids} tick={logTick} />}
        </div>
        <div class='hook-side'>
          <SendTest ids={ids} enabled={w.enabled} onSent={() => setLogTick((t) => t + 1)} />
          <SigningSecret ids={ids} hook={w} onRotated={hook.reload} />
          <OnOff ids={ids} hook={w} onChange={hook.set} />
        </div>
        <div class='hook-settings'>
          <EndpointForm hook={w} onSaved={hook.set} />
        </div>
      </div>
    </>
  );
}
