// Shop connections: the shops whose orders make review requests, connecting one (with its setup
// steps, and for a `webhook` connection its signing secret shown once), and the automation that
// decides when customers are asked. One connection's page is connection-page.tsx.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, CopyField, Empty, ErrorNotice, Loading, Notice, PageHeader } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { OnceSecret } from '../../ui/once-secret.tsx';
import { AutomationSettings } from './automation.tsx';
import { ConnectForm } from './connect-form.tsx';
import { platformName } from './words.ts';

type NewConnection = Schemas['NewConnection'];

export function Connections(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const list = useLoad(
    (signal) => api.get('/organizations/{orgId}/connections', { params: { orgId }, query: { limit: 100 }, signal }),
    [orgId],
  );
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<NewConnection>();
  const removed = query.get('disconnected') === '1';

  return (
    <>
      <PageHeader title='Shop connections'>
        {!adding && !created && (
          <button type='button' class='button primary' onClick={() => setAdding(true)}>Connect a shop</button>
        )}
      </PageHeader>
      <p class='muted lede'>
        Connect the shop where your orders happen. Plaudit follows each order and asks the customer for a review once,
        at the right time, and the <a href={appPath('/orders')}>orders</a> page says why any order did or did not.
      </p>
      {removed && <Notice tone='success'>The connection is removed. Its events are refused from now on.</Notice>}
      {created && (
        created.signing_secret
          ? (
            <OnceSecret
              title={`${created.name} is connected`}
              label='Signing secret'
              secret={created.signing_secret}
              done={() => setCreated(undefined)}
              ifLost='remove the connection and connect the shop again'
            >
              <CopyField label='Inbound URL' value={created.inbound_url} />
              <p class='small'>
                Sign every event with this secret (Standard Webhooks) and POST it to the inbound URL. Then{' '}
                <a href={appPath(`/connections/${created.id}`)}>open the connection</a> to see its events arrive.
              </p>
            </OnceSecret>
          )
          : (
            <section class='card' aria-labelledby='connected-title'>
              <h2 id='connected-title'>{created.name} is connected</h2>
              <p>
                Now paste its inbound URL into {platformName(created.platform)} and tick the topics, as the steps on
                {' '}
                <a href={appPath(`/connections/${created.id}`)}>its page</a> say.
              </p>
              <CopyField label='Inbound URL' value={created.inbound_url} />
              <button type='button' class='button' onClick={() => setCreated(undefined)}>Done</button>
            </section>
          )
      )}
      {adding && (
        <ConnectForm
          onCancel={() => setAdding(false)}
          onCreated={(c) => {
            setAdding(false);
            setCreated(c);
            if (removed) setQuery({ disconnected: null });
            list.reload();
          }}
        />
      )}

      <div class='review-grid'>
        <section aria-labelledby='connections-title'>
          <h2 class='section-title' id='connections-title'>Connections</h2>
          <ErrorNotice error={list.error} />
          {list.loading && !list.data && <Loading what='Loading the connections' />}
          {list.data && list.data.data.length === 0 && (
            <Empty>
              No shop connected yet. Connect Shopify, WooCommerce, Stripe or any shop that can send a signed webhook.
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul class='dev-list' aria-busy={list.loading}>
              {list.data.data.map((c) => (
                <li key={c.id} class='dev-row'>
                  <div class='dev-row-main'>
                    <p class='dev-row-head'>
                      <a href={appPath(`/connections/${c.id}`)}>{c.name}</a>
                      <Badge tone={c.status === 'active' ? 'good' : 'bad'}>
                        {c.status === 'active' ? 'Active' : 'Disconnected'}
                      </Badge>
                    </p>
                    <p class='dev-meta'>
                      <span>{platformName(c.platform)}</span>
                      <span>
                        {c.last_event_at ? `Last event ${formatDateTime(c.last_event_at)}` : 'No event received yet'}
                      </span>
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <AutomationSettings />
      </div>
    </>
  );
}
