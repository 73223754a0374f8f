// Webhooks: the endpoints that receive the organization's events, and a new endpoint with its
// signing secret shown once. One endpoint's page is webhook-page.tsx.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { DeliveryBadge, Health } from './badges.tsx';
import { EndpointForm } from './endpoint-form.tsx';
import { OnceSecret } from '../../ui/once-secret.tsx';
import { disabledWhy, eventsText } from './words.ts';

type Webhook = Schemas['Webhook'];
type NewWebhook = Schemas['NewWebhook'];
type Delivery = Schemas['WebhookDelivery'];

export function Webhooks(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const list = useLoad(
    (signal) => api.get('/organizations/{orgId}/webhooks', { params: { orgId }, query: { page, limit: 20 }, signal }),
    [orgId, page],
  );
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<NewWebhook>();
  const deleted = query.get('deleted') === '1';

  return (
    <>
      <PageHeader title='Webhooks'>
        {!adding && !created && (
          <button type='button' class='button primary' onClick={() => setAdding(true)}>Add an endpoint</button>
        )}
      </PageHeader>
      <p class='muted lede'>
        Plaudit tells your systems when something happens, such as a new review, by sending a signed HTTPS POST to your
        endpoint. Failed deliveries are retried for about 3 days.
      </p>
      {deleted && <Notice tone='success'>The endpoint is deleted. It receives nothing more.</Notice>}
      {created && (
        <OnceSecret
          title='Endpoint added'
          label='Signing secret'
          secret={created.secret}
          done={() => setCreated(undefined)}
        >
          <p class='small'>
            Check each delivery's <code>x-webhook-signature</code>{' '}
            (hex HMAC-SHA256 of the body, keyed with this secret) before trusting it. Next,{' '}
            <a href={appPath(`/developers/webhooks/${created.id}`)}>open the endpoint and send a test event</a>.
          </p>
        </OnceSecret>
      )}
      {adding && (
        <EndpointForm
          onCancel={() => setAdding(false)}
          onCreated={(w) => {
            setAdding(false);
            setCreated(w);
            if (deleted) setQuery({ deleted: null });
            list.reload();
          }}
        />
      )}

      <h2 class='section-title'>Endpoints</h2>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the endpoints' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          No endpoint yet. Add one to have new reviews, moderation and exports pushed to your shop, CRM or chat as they
          happen.
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='dev-list' aria-busy={list.loading}>
            {list.data.data.map((w) => (
              <li key={w.id} class='dev-row'>
                <div class='dev-row-main'>
                  <p class='dev-row-head'>
                    <a class='url' href={appPath(`/developers/webhooks/${w.id}`)}>{w.url}</a>
                    <Health hook={w} />
                  </p>
                  {w.description && <p class='dev-desc'>{w.description}</p>}
                  <p class='dev-meta'>
                    <span>Events: {eventsText(w.events)}</span>
                    <LastDelivery hook={w} />
                  </p>
                  {!w.enabled && (
                    <p class='dev-meta'>Off since {formatDateTime(w.disabled_at)}: {disabledWhy(w.disabled_reason)}.</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

/** The endpoint's newest delivery, read from its log. */
function LastDelivery({ hook }: { hook: Webhook }) {
  const orgId = useOrgId();
  const last = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/webhooks/{id}/deliveries', {
        params: { orgId, id: hook.id },
        query: { limit: 1 },
        signal,
      }).catch(() => null),
    [hook.id, hook.updated_at],
  );
  const d = last.data?.data[0];
  if (last.loading || last.data === null) return null;
  if (!d) return <span>No delivery yet</span>;
  return (
    <span>
      Last delivery: <DeliveryBadge status={d.status} /> {d.event}, {formatDateTime(d.created_at)}
      {d.last_status_code ? ` (HTTP ${d.last_status_code})` : ''}
    </span>
  );
}
