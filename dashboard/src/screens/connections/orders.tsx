// Orders as the connected shops reported them: newest first, filtered by status or by connection,
// each with its review request or the reason it made none.
import { api, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, PageHeader, Pager } from '../../ui/components.tsx';
import { SelectField } from '../../ui/fields.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { orderEventText, platformName, requestStatus, skipText } from './words.ts';

type Order = Schemas['Order'];

const STATUSES = ['created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded'] as const;

export function Orders(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const status = query.get('status') ?? '';
  const connectionId = query.get('connection_id') ?? '';
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/orders', {
        params: { orgId },
        query: { page, limit: 25, status: status || undefined, connection_id: connectionId || undefined },
        signal,
      }),
    [orgId, page, status, connectionId],
  );

  return (
    <>
      <PageHeader title='Orders' />
      <p class='muted lede'>
        Every order your <a href={appPath('/connections')}>connected shops</a>{' '}
        reported, with its review request, or why it made none.
      </p>
      <div class='filters'>
        <SelectField
          label='Status'
          name='status'
          value={status}
          onValue={(v) => setQuery({ status: v || null, page: null })}
          options={[['', 'Any status'], ...STATUSES.map((s) => [s, orderEventText(s)] as const)]}
        />
        {connectionId && (
          <p>
            From one connection. <a href={appPath('/orders')}>Show every order</a>
          </p>
        )}
      </div>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the orders' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>No order yet. Orders appear here as soon as a connected shop sends them.</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='dev-list' aria-busy={list.loading}>
            {list.data.data.map((o) => <OrderRow key={`${o.order_id}`} order={o} />)}
          </ul>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

function OrderRow({ order: o }: { order: Order }) {
  const appPath = useAppPath();
  const last = o.events.at(-1);
  return (
    <li class='dev-row'>
      <div class='dev-row-main'>
        <p class='dev-row-head'>
          <a href={appPath(`/orders/${encodeURIComponent(o.order_id)}`)}>Order {o.order_id}</a>
          {o.status && <Badge>{orderEventText(o.status)}</Badge>}
        </p>
        <p class='dev-meta'>
          <span>{o.name ? `${o.name} · ` : ''}{o.email ?? 'No e-mail'}</span>
          <span>{platformName(o.platform)}</span>
          {last && <span>{orderEventText(last.type)} {formatDateTime(last.occurred_at)}</span>}
        </p>
        <p class='dev-meta'>
          {o.review_request
            ? (
              <span>
                Review request: {requestStatus(o.review_request.status)}, sent{' '}
                {formatDateTime(o.review_request.send_at)}
              </span>
            )
            : o.skipped
            ? <span>No review request: {skipText(o.skipped.reason)}</span>
            : <span class='muted'>No review request yet: the order has not reached the trigger.</span>}
        </p>
      </div>
    </li>
  );
}
