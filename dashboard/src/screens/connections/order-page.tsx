// One order: its items (the catalog's name and image, or the shop's id when the catalog knows none),
// its timeline (each event's own time and when it reached Plaudit), and its review request with its
// status, or the reason the order made none, in plain words.
import { api } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, ErrorNotice, Loading } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { Thumbnail } from '../../ui/thumbnail.tsx';
import { orderEventText, platformName, requestStatus, skipText } from './words.ts';

export function OrderPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const orderId = decodeURIComponent(params.orderId);
  const order = useLoad(
    (signal) => api.get('/organizations/{orgId}/orders/{orderId}', { params: { orgId, orderId }, signal }),
    [orgId, orderId],
  );
  if (order.error) {
    return (
      <>
        <h1 tabIndex={-1}>Order {orderId}</h1>
        <ErrorNotice error={order.error} />
        <p>
          <a href={appPath('/orders')}>Back to the orders</a>
        </p>
      </>
    );
  }
  if (!order.data) return <Loading what='Loading the order' />;
  const o = order.data;
  const rr = o.review_request;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/orders')}>Orders</a>
      </p>
      <header class='page-header'>
        <h1 tabIndex={-1}>Order {o.order_id}</h1>
        {o.status && <Badge>{orderEventText(o.status)}</Badge>}
      </header>
      <div class='review-grid'>
        <section class='card' aria-labelledby='timeline-title'>
          <h2 id='timeline-title'>Timeline</h2>
          {o.events.length === 0 && <p class='muted'>No event from the shop (loaded through the API).</p>}
          <ol class='timeline'>
            {o.events.map((e, i) => (
              <li key={i}>
                <p class='timeline-what'>{orderEventText(e.type)}</p>
                <p class='small muted'>
                  Happened {formatDateTime(e.occurred_at)} · reached Plaudit {formatDateTime(e.received_at)}
                </p>
              </li>
            ))}
            {o.skipped && (
              <li class='timeline-decision'>
                <p class='timeline-what'>No review request</p>
                <p class='small'>{skipText(o.skipped.reason)}</p>
                <p class='small muted'>Decided {formatDateTime(o.skipped.at)}</p>
              </li>
            )}
            {rr && (
              <li class='timeline-decision'>
                <p class='timeline-what'>
                  <a href={appPath(`/requests/${rr.id}`)}>Review request</a> <Badge>{requestStatus(rr.status)}</Badge>
                </p>
                <p class='small muted'>
                  {rr.status === 'queued' ? 'To be sent' : 'Sent'} {formatDateTime(rr.send_at)}
                </p>
              </li>
            )}
          </ol>
          {!rr && !o.skipped && (
            <p class='muted'>
              No review request yet: it is made when the order reaches the trigger set in the{' '}
              <a href={appPath('/connections')}>automation</a>.
            </p>
          )}
        </section>
        <aside class='side'>
          <section class='card' aria-labelledby='order-facts'>
            <h2 id='order-facts'>Details</h2>
            <dl class='facts'>
              <dt>Customer</dt>
              <dd>{o.name ? `${o.name} · ` : ''}{o.email ?? 'No e-mail address'}</dd>
              <dt>From</dt>
              <dd>
                {o.connection_id
                  ? <a href={appPath(`/connections/${o.connection_id}`)}>{platformName(o.platform)}</a>
                  : platformName(o.platform)}
              </dd>
            </dl>
            <h3>Items</h3>
            {o.items.length === 0 && <p class='muted'>No product named: a request would be about your business.</p>}
            <ul class='order-items'>
              {o.items.map((it) => (
                <li key={it.product_external_id}>
                  <Thumbnail product={it.product ?? { image_url: null }} size={32} />
                  {it.product
                    ? (
                      <span class='order-item-name'>
                        <a href={appPath(`/products/${it.product.id}`)}>{it.product.name}</a>{' '}
                        <span class='small muted'>
                          (<code>{it.product_external_id}</code>)
                        </span>
                      </span>
                    )
                    : (
                      <span class='order-item-name'>
                        <code>{it.product_external_id}</code> <span class='small muted'>not in the catalog</span>
                      </span>
                    )} × {it.quantity}
                  {it.refunded && <Badge tone='bad'>refunded</Badge>}
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>
    </>
  );
}
