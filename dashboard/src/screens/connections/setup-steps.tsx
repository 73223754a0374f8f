// What to do on each platform so that its events reach Plaudit: where to paste the inbound URL,
// which topics to tick, which secret to copy back. Shown when connecting and on a connection's page.
import { CopyField } from '../../ui/components.tsx';
import type { Platform } from './words.ts';

/** Shopify's webhook topics Plaudit reads, in the order Shopify's list shows them. */
export const SHOPIFY_TOPICS = [
  'orders/create',
  'orders/paid',
  'orders/fulfilled',
  'orders/partially_fulfilled',
  'fulfillments/create',
  'fulfillments/update',
  'orders/cancelled',
  'refunds/create',
  'products/create',
  'products/update',
  'products/delete',
];
export const SHOPIFY_PRIVACY_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'];
export const WOOCOMMERCE_TOPICS = [
  'Order created',
  'Order updated',
  'Order deleted',
  'Product created',
  'Product updated',
  'Product deleted',
];
export const STRIPE_EVENTS = ['checkout.session.completed', 'charge.refunded'];

const Topics = ({ list }: { list: string[] }) => (
  <ul class='topic-list'>
    {list.map((t) => (
      <li key={t}>
        <code>{t}</code>
      </li>
    ))}
  </ul>
);

/** The steps of a platform; with the inbound URL once the connection exists (a placeholder before). */
export function SetupSteps({ platform, inboundUrl }: { platform: Platform; inboundUrl?: string }) {
  const url = inboundUrl
    ? <CopyField label='Inbound URL' value={inboundUrl} />
    : <p class='hint'>The inbound URL appears here once you connect.</p>;
  if (platform === 'shopify') {
    return (
      <ol class='steps setup-steps'>
        <li>
          In Shopify admin, open <strong>Settings → Notifications → Webhooks</strong>.
        </li>
        <li>
          Click <strong>Create webhook</strong> once for each topic below, each with format <strong>JSON</strong>{' '}
          and the latest API version, URL:
          {url}
          <Topics list={SHOPIFY_TOPICS} />
        </li>
        <li>
          Below the list, Shopify says “Your webhooks will be signed with …”: copy that key, it is the{' '}
          <strong>webhook signing secret</strong> Plaudit asks for.
        </li>
        <li>
          Optional, to show your ratings in your theme: under{' '}
          <strong>Settings → Apps and sales channels → Develop apps</strong>, create an app, give it the Admin API scope
          {' '}
          <code>write_products</code>, install it and copy its <strong>Admin API access token</strong>{' '}
          (<code>shpat_…</code>). If your app has compliance webhooks, point <code>customers/data_request</code>,{' '}
          <code>customers/redact</code> and <code>shop/redact</code> at the same URL.
        </li>
        <li>
          Place a test order, then press <strong>Check the last events</strong> on the connection’s page.
        </li>
      </ol>
    );
  }
  if (platform === 'woocommerce') {
    return (
      <ol class='steps setup-steps'>
        <li>
          In WordPress, open <strong>WooCommerce → Settings → Advanced → Webhooks</strong>.
        </li>
        <li>
          Click <strong>Add webhook</strong> once for each topic below: status <strong>Active</strong>, API version{' '}
          <strong>WP REST API Integration v3</strong>, the same <strong>Secret</strong>{' '}
          each time (the one you give here), delivery URL:
          {url}
          <Topics list={WOOCOMMERCE_TOPICS} />
        </li>
        <li>
          Save. WooCommerce sends a ping first; then place a test order and press{' '}
          <strong>Check the last events</strong>.
        </li>
      </ol>
    );
  }
  if (platform === 'stripe') {
    return (
      <ol class='steps setup-steps'>
        <li>
          In the Stripe Dashboard, open <strong>Developers → Webhooks</strong> and click{' '}
          <strong>Add endpoint</strong>. Endpoint URL:
          {url}
        </li>
        <li>
          Select the events:
          <Topics list={STRIPE_EVENTS} />
        </li>
        <li>
          Add the endpoint, then <strong>Reveal</strong> its signing secret (<code>whsec_…</code>) and give it here.
        </li>
        <li>
          To name the products of a sale, set the Checkout Session’s metadata <code>plaudit_products</code>{' '}
          to their ids, comma-separated; <code>client_reference_id</code> becomes the order number.
        </li>
      </ol>
    );
  }
  return (
    <ol class='steps setup-steps'>
      <li>
        Plaudit makes a signing secret when you connect and shows it once: store it with your shop’s settings.
      </li>
      <li>
        From your shop (a Medusa subscriber, a Saleor app, your own code), POST each order event as JSON{' '}
        <code>{'{"type","timestamp","data"}'}</code> to:
        {url}
      </li>
      <li>
        Sign it with <a href='https://www.standardwebhooks.com/'>Standard Webhooks</a>: the headers{' '}
        <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (the{' '}
        <code>standardwebhooks</code> package does it in one call).
      </li>
      <li>
        Types: <code>order.created</code>, <code>order.paid</code>, <code>order.fulfilled</code>,{' '}
        <code>order.delivered</code>, <code>order.cancelled</code>, <code>order.refunded</code>,{' '}
        <code>product.upserted</code>, <code>product.deleted</code>, <code>customer.redact</code>.
      </li>
    </ol>
  );
}
