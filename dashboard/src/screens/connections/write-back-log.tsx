// A Shopify connection's ratings written back to its products' metafields: the last ten, each with
// what was set (or removed), when, and why one failed or waits for a retry.
import { api, type ItemIds } from '../../api.ts';
import { Badge, ErrorNotice, Loading } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';

const STATUS: Record<string, [string, string]> = {
  pending: ['Waiting', 'warn'],
  sending: ['Sending', 'warn'],
  retrying: ['Will retry', 'warn'],
  sent: ['Sent', 'good'],
  failed: ['Failed', 'bad'],
};

export function WriteBackLog({ ids, on }: { ids: ItemIds; on: boolean }) {
  const log = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/connections/{id}/write-backs', { params: ids, query: { limit: 10 }, signal }),
    [ids.orgId, ids.id],
  );
  return (
    <section class='card' aria-labelledby='write-back-title'>
      <h2 id='write-back-title'>Ratings in Shopify</h2>
      <p class='small muted'>
        {on
          ? 'When a product’s published reviews change, Plaudit sets its reviews.rating and reviews.rating_count metafields, which your theme can show.'
          : 'Give the connection an Admin API access token with the write_products scope to keep each product’s rating metafields up to date.'}
      </p>
      <ErrorNotice error={log.error} />
      {log.loading && !log.data && <Loading what='Loading the ratings sent' />}
      {log.data && log.data.data.length === 0 && on && <p class='muted'>Nothing sent yet.</p>}
      {log.data && log.data.data.length > 0 && (
        <ul class='event-list'>
          {log.data.data.map((w) => (
            <li key={w.id}>
              <p class='dev-row-head'>
                <span>
                  Product <code>{w.product_external_id}</code>:{' '}
                  {w.rating ? `${w.rating} ★ from ${w.rating_count} reviews` : 'rating removed (no published review)'}
                </span>
                <Badge tone={STATUS[w.status]?.[1]}>{STATUS[w.status]?.[0] ?? w.status}</Badge>
              </p>
              <p class='dev-meta'>
                <span>{w.sent_at ? `Sent ${formatDateTime(w.sent_at)}` : `Asked ${formatDateTime(w.created_at)}`}</span>
                {w.next_attempt_at && <span>Next try {formatDateTime(w.next_attempt_at)}</span>}
              </p>
              {w.last_error && <p class='small field-error'>{w.last_error}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
