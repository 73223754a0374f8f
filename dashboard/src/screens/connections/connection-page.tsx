// One shop connection: what it is, its setup steps with the inbound URL, the last events it
// received with their outcome (asked for with POST …/test, which sends nothing to the shop), its
// orders, and removing it after a confirmation.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { navigate } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading } from '../../ui/components.tsx';
import { Confirm } from '../../ui/confirm.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { SetupSteps } from './setup-steps.tsx';
import { WriteBackLog } from './write-back-log.tsx';
import { outcomeText, outcomeTone, type Platform, platformName } from './words.ts';

type ConnectionTest = Schemas['ConnectionTest'];

export function ConnectionPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const ids: ItemIds = { orgId, id: params.id };
  const conn = useLoad(
    (signal) => api.get('/organizations/{orgId}/connections/{id}', { params: ids, signal }),
    [orgId, params.id],
  );
  const remove = useAction(async () => {
    await api.delete('/organizations/{orgId}/connections/{id}', { params: ids });
    navigate(appPath('/connections?disconnected=1'));
  });

  if (conn.error) {
    return (
      <>
        <h1 tabIndex={-1}>Shop connection</h1>
        <ErrorNotice error={conn.error} />
        <p>
          <a href={appPath('/connections')}>Back to the connections</a>
        </p>
      </>
    );
  }
  if (!conn.data) return <Loading what='Loading the connection' />;
  const c = conn.data;
  const writeBack = c.platform === 'shopify' && c.settings.write_back === true;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/connections')}>Shop connections</a>
      </p>
      <header class='page-header'>
        <h1 tabIndex={-1}>{c.name}</h1>
      </header>
      <div class='review-grid'>
        <div>
          <LastEvents ids={ids} />
          {c.platform === 'shopify' && <WriteBackLog ids={ids} on={writeBack} />}
          <section class='card' aria-labelledby='setup-title'>
            <h2 id='setup-title'>Setup on {platformName(c.platform)}</h2>
            <SetupSteps platform={c.platform as Platform} inboundUrl={c.inbound_url} />
          </section>
        </div>
        <aside class='side'>
          <section class='card' aria-labelledby='facts-title'>
            <h2 id='facts-title'>Details</h2>
            <dl class='facts'>
              <dt>Platform</dt>
              <dd>{platformName(c.platform)}</dd>
              <dt>Status</dt>
              <dd>
                <Badge tone={c.status === 'active' ? 'good' : 'bad'}>
                  {c.status === 'active' ? 'Active' : 'Disconnected'}
                </Badge>
              </dd>
              {typeof c.settings.shop_domain === 'string' && (
                <>
                  <dt>Shop</dt>
                  <dd>{c.settings.shop_domain}</dd>
                </>
              )}
              {typeof c.settings.store_url === 'string' && (
                <>
                  <dt>Store</dt>
                  <dd>{c.settings.store_url}</dd>
                </>
              )}
              {c.platform === 'shopify' && (
                <>
                  <dt>Ratings in Shopify</dt>
                  <dd>{writeBack ? 'Written to each product’s metafields' : 'Off (no Admin API token)'}</dd>
                </>
              )}
              <dt>Connected</dt>
              <dd>{formatDateTime(c.created_at)}</dd>
              <dt>Last event</dt>
              <dd>{c.last_event_at ? formatDateTime(c.last_event_at) : 'None yet'}</dd>
            </dl>
            <p>
              <a href={appPath(`/orders?connection_id=${c.id}`)}>Orders from this connection</a>
            </p>
          </section>
          <section class='card' aria-labelledby='remove-title'>
            <h2 id='remove-title'>Remove the connection</h2>
            <p class='small'>
              Its events are refused from then on. Orders and review requests it brought stay.
            </p>
            <ErrorNotice error={remove.error} />
            <Confirm
              label='Disconnect'
              about={c.name}
              question={`Remove ${c.name}? Events it sends are refused from now on; this cannot be undone.`}
              confirm='Yes, remove it'
              pending={remove.pending}
              onConfirm={() => void remove.run()}
            />
          </section>
        </aside>
      </div>
    </>
  );
}

/** The last 20 events the connection received, newest first, each with its outcome. */
function LastEvents({ ids }: { ids: ItemIds }) {
  const [events, setEvents] = useState<ConnectionTest['events']>();
  const check = useAction(async () => {
    setEvents((await api.post('/organizations/{orgId}/connections/{id}/test', { params: ids })).events);
  });
  return (
    <section class='card' aria-labelledby='events-title'>
      <h2 id='events-title'>Last events</h2>
      <p class='small muted'>
        What the shop sent most recently and what Plaudit did with it. Nothing is sent to your shop.
      </p>
      <button type='button' class='button' disabled={check.pending} onClick={() => void check.run()}>
        {check.pending ? 'Checking…' : events ? 'Check again' : 'Check the last events'}
      </button>
      <ErrorNotice error={check.error} />
      {events && events.length === 0 && (
        <Empty>
          No event has arrived yet. Check the URL and topics in your shop’s settings, then place a test order.
        </Empty>
      )}
      {events && events.length > 0 && (
        <ul class='event-list' aria-live='polite'>
          {events.map((e) => (
            <li key={`${e.delivery_id}-${e.received_at}`}>
              <p class='dev-row-head'>
                <code>{e.topic}</code>
                <Badge tone={outcomeTone(e.outcome)}>{outcomeText(e.outcome)}</Badge>
              </p>
              <p class='dev-meta'>
                <span>Received {formatDateTime(e.received_at)}</span>
                <span class='muted'>Delivery {e.delivery_id}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
