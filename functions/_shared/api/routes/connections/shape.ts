// The shapes of connections, their events and the platform-specific fields they are created with.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { PLATFORMS } from '../../../core/connections/platforms.ts';
import { ApiError } from '../../http/errors.ts';
import { iso, Timestamp } from '../../http/schemas.ts';

const Name = z.string().trim().min(1).max(200).openapi({ description: 'What the dashboard calls it.' });
const Secret = z.string().trim().min(1).max(500);
const ShopDomain = z.string().trim().toLowerCase().max(255)
  .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'must be <name>.myshopify.com')
  .openapi({ example: 'acme.myshopify.com' });
const StoreUrl = z.string().trim().max(2048).regex(/^https?:\/\/[^\s/]+/, 'must be an http(s) URL')
  .openapi({ example: 'https://shop.example.com' });

export const ConnectionInput = z.discriminatedUnion('platform', [
  z.object({
    platform: z.literal('shopify'),
    name: Name.optional(),
    shop_domain: ShopDomain,
    webhook_secret: Secret.openapi({ description: "The custom app's API secret key, which signs its webhooks." }),
    access_token: Secret.optional().openapi({
      description: "The custom app's Admin API access token: enables writing ratings back to the products.",
    }),
  }),
  z.object({
    platform: z.literal('woocommerce'),
    name: Name.optional(),
    store_url: StoreUrl,
    webhook_secret: Secret.openapi({ description: 'The secret set on the WooCommerce webhooks.' }),
  }),
  z.object({
    platform: z.literal('stripe'),
    name: Name.optional(),
    webhook_secret: z.string().trim().max(500).regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be whsec_…')
      .openapi({ description: "The webhook endpoint's signing secret." }),
  }),
  z.object({ platform: z.literal('webhook'), name: Name.optional() }),
]).openapi('ConnectionInput', {
  example: { platform: 'shopify', shop_domain: 'acme.myshopify.com', webhook_secret: 'shpss_…' },
});

export const ConnectionPatch = z.object({
  name: Name.optional(),
  status: z.enum(['active', 'disconnected']).optional().openapi({
    description: '`disconnected`: its events answer 401 until it is active again.',
  }),
  webhook_secret: Secret.optional().openapi({ description: 'A new secret (Shopify, WooCommerce, Stripe).' }),
  access_token: Secret.nullable().optional().openapi({ description: 'Shopify: a new access token, or null.' }),
  shop_domain: ShopDomain.optional(),
  store_url: StoreUrl.optional(),
}).openapi('ConnectionPatch', { example: { name: 'Main shop', status: 'active' } });

export const Connection = z.object({
  id: z.string().uuid(),
  platform: z.enum(PLATFORMS),
  name: z.string(),
  status: z.enum(['active', 'disconnected']),
  inbound_url: z.string().openapi({ description: 'Where the platform sends its events.' }),
  created_at: Timestamp,
  last_event_at: Timestamp.nullable(),
  settings: z.object({
    shop_domain: z.string().optional().openapi({ description: 'Shopify: the shop.' }),
    write_back: z.boolean().optional().openapi({
      description: 'Shopify: an access token is set, so ratings are written back to the products.',
    }),
    store_url: z.string().optional().openapi({ description: 'WooCommerce: the store.' }),
  }).openapi({ description: "The platform's fields, never a secret; Stripe and webhook connections have none." }),
}).openapi('Connection');

export const NewConnection = Connection.extend({
  signing_secret: z.string().optional().openapi({
    description: '`webhook` connections: the secret (`whsec_…`) to sign events with, shown this once.',
  }),
}).openapi('NewConnection');

export const ConnectionEvent = z.object({
  delivery_id: z.string(),
  topic: z.string(),
  received_at: Timestamp,
  outcome: z.string().openapi({ description: '`accepted`, `duplicate`, `ignored` or `refused: <why>`.' }),
  processed_at: Timestamp.nullable(),
}).openapi('ConnectionEvent');

export const ConnectionTest = z.object({
  events: z.array(ConnectionEvent).openapi({ description: 'The last 20 events, newest first.' }),
}).openapi('ConnectionTest');

export interface ConnectionRow {
  id: string;
  platform: typeof PLATFORMS[number];
  name: string;
  status: 'active' | 'disconnected';
  settings: Record<string, unknown>;
  created_at: Date;
  last_event_at: Date | null;
}

export const CONNECTION_COLUMNS = ['id', 'platform', 'name', 'status', 'settings', 'created_at', 'last_event_at'];

export const toConnection = (r: ConnectionRow, publicUrl: string): z.infer<typeof Connection> => ({
  id: r.id,
  platform: r.platform,
  name: r.name,
  status: r.status,
  inbound_url: `${publicUrl.replace(/\/+$/, '')}/api/v1/connections/${r.id}/events`,
  created_at: iso(r.created_at)!,
  last_event_at: iso(r.last_event_at),
  settings: r.settings,
});

export async function loadConnection(db: Tx, id: string): Promise<ConnectionRow> {
  const [row] = await db<ConnectionRow[]>`
    select ${db(CONNECTION_COLUMNS)} from plaudit.connections where id = ${id} and deleted_at is null`;
  if (!row) throw new ApiError(404, 'Connection not found');
  return row;
}

/** The settings a connection keeps of its platform's fields (never a secret). */
export function settingsOf(
  platform: string,
  fields: { shop_domain?: string; store_url?: string; access_token?: string | null },
  current: Record<string, unknown> = {},
): Record<string, unknown> {
  if (platform === 'shopify') {
    return {
      shop_domain: fields.shop_domain ?? current.shop_domain,
      write_back: fields.access_token === undefined ? current.write_back ?? false : fields.access_token !== null,
    };
  }
  if (platform === 'woocommerce') {
    return { store_url: (fields.store_url ?? current.store_url as string)?.replace(/\/+$/, '') };
  }
  return {};
}

/** The name a connection gets when none is given: its shop's address, or its platform's. */
export function defaultName(input: z.infer<typeof ConnectionInput>): string {
  if (input.platform === 'shopify') return input.shop_domain;
  if (input.platform === 'woocommerce') return new URL(input.store_url).host.slice(0, 200);
  return input.platform === 'stripe' ? 'Stripe' : 'Webhook';
}
