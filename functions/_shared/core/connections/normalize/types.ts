// What an inbound event means, whatever the platform: the calls the worker makes of the
// database's functions (plaudit.apply_order_event, sync_connection_product,
// erase_connection_customers, record_connection_data_request). A platform's normalizer reads its
// payload into these; a payload it cannot read throws Refusal (the event is refused, its reason kept).

export type OrderEventType =
  | 'created'
  | 'paid'
  | 'fulfilled'
  | 'delivered'
  | 'cancelled'
  | 'refunded'
  | 'partially_refunded';

export interface OrderItem {
  product_external_id: string;
  quantity?: number;
  refunded?: boolean;
}

export interface OrderFacts {
  /** What the customer sees; absent when the event names the order by the platform's id alone. */
  order_id?: string;
  platform_order_id?: string;
  email?: string;
  name?: string;
  locale?: string;
  country?: string;
  items?: OrderItem[];
  refunded_items?: string[];
}

export interface ProductFacts {
  external_id: string;
  name?: string;
  url?: string;
  image_url?: string;
  sku?: string;
  gtin?: string;
}

export type Action =
  | { kind: 'order'; type: OrderEventType; occurredAt: string; order: OrderFacts }
  | { kind: 'product'; product: ProductFacts; deleted: boolean }
  | { kind: 'erase'; email: string | null }
  | { kind: 'data_request'; email: string }
  | { kind: 'ignored' };

/** A connection's settings the normalizers use (the shop's address for product URLs). */
export interface ConnectionSettings {
  shop_domain?: string;
  store_url?: string;
}

export class Refusal extends Error {}

/** The context an event is read in: its topic and when it arrived (the time of last resort). */
export interface EventContext {
  topic: string;
  receivedAt: string;
  settings: ConnectionSettings;
}
