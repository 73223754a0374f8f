// An endpoint's deliveries of the last 30 days, filtered by status, polled while one is queued.
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { Badge, Empty, ErrorNotice, Loading, Pager } from '../../ui/components.tsx';
import { formatDateTime, formatNumber } from '../../ui/format.ts';
import { useLoad, usePolling } from '../../ui/hooks.ts';
import { DeliveryBadge } from './badges.tsx';
import { responseText } from './words.ts';

type Delivery = Schemas['WebhookDelivery'];

/** This page's address with some query values changed. */
function withQuery(values: Record<string, string>): string {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(values)) q.set(k, v);
  return `${location.pathname}?${q}`;
}

export function DeliveryLog({ ids, tick }: { ids: ItemIds; tick: number }) {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const page = Number(query.get('page')) || 1;
  const log = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/webhooks/{id}/deliveries', {
        params: ids,
        query: { status: status || undefined, page, limit: 20 },
        signal,
      }),
    [ids.orgId, ids.id, status, page, tick],
  );
  const pending = !!log.data?.data.some((d) => d.status === 'pending');
  usePolling(pending, log.reload, tick);
  const rows = log.data?.data ?? [];

  return (
    <section class='card' aria-labelledby='log-title'>
      <div class='section-head'>
        <h2 id='log-title'>Delivery log</h2>
        <div class='field inline-field'>
          <label for='f-delivery-status'>Show</label>
          <select
            id='f-delivery-status'
            value={status}
            onChange={(e) => setQuery({ status: e.currentTarget.value, page: null })}
          >
            <option value=''>All deliveries</option>
            <option value='pending'>Queued</option>
            <option value='succeeded'>Delivered</option>
            <option value='failed'>Failed</option>
            <option value='cancelled'>Cancelled</option>
          </select>
        </div>
      </div>
      <p class='muted small'>The last 30 days, newest first.</p>
      <ErrorNotice error={log.error} />
      {log.loading && !log.data && <Loading what='Loading the deliveries' />}
      {log.data && rows.length === 0 && (
        <Empty>
          {status
            ? 'No delivery in this state.'
            : 'Nothing sent yet. Send a test event to see how your endpoint answers.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <>
          <div class='table-wrap stack-table' aria-busy={log.loading}>
            <table>
              <caption class='visually-hidden'>Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope='col'>Event</th>
                  <th scope='col'>Status</th>
                  <th scope='col'>Response</th>
                  <th scope='col'>Attempts</th>
                  <th scope='col'>Time</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.id}>
                    <td data-label='Event'>
                      <a href={withQuery({ delivery: d.id })}>
                        <code>{d.event}</code>
                        <span class='visually-hidden'>, {formatDateTime(d.created_at)}</span>
                      </a>
                      {d.is_test && <Badge tone='plain'>test</Badge>}
                    </td>
                    <td data-label='Status'>
                      <DeliveryBadge status={d.status} />
                    </td>
                    <td data-label='Response' class='wrap'>{responseText(d)}</td>
                    <td data-label='Attempts'>{formatNumber(d.attempts)}</td>
                    <td data-label='Time'>{formatDateTime(d.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager meta={log.data!.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </section>
  );
}
