// The platforms' payloads read into facts: ids as the customer sees them, times as the platform
// stamped them, locales and addresses as the database takes them, and a refusal naming the field
// for what cannot be read.
import { describe, expect, it } from 'vitest';
import { NORMALIZERS, Refusal } from './index.ts';
import { locale, time } from './read.ts';

const ctx = (topic: string, settings = {}) => ({ topic, receivedAt: '2026-11-28T12:00:00.000Z', settings });

describe('reading values', () => {
  it('takes locales and times in the forms the platforms send', () => {
    expect([locale('en-US'), locale('pt_br'), locale('FR'), locale('english'), locale(3)]).toEqual([
      'en-US',
      'pt-BR',
      'fr',
      undefined,
      undefined,
    ]);
    expect(time('2026-11-20T10:00:00-05:00')).toBe('2026-11-20T15:00:00.000Z');
    expect(time('2026-11-20T19:00:00')).toBe('2026-11-20T19:00:00.000Z'); // WooCommerce's _gmt
    expect(time(1795000000)).toBe('2026-11-18T11:06:40.000Z'); // Stripe's Unix seconds
    expect(time('soon')).toBeUndefined();
  });
});

describe('Shopify', () => {
  it("names a fulfilment's order by the fulfilment's name without its number", () => {
    const [a] = NORMALIZERS.shopify(
      { name: '#1001.2', order_id: 5, created_at: '2026-11-21T09:00:00Z' },
      ctx(
        'fulfillments/create',
      ),
    );
    expect(a).toEqual({
      kind: 'order',
      type: 'fulfilled',
      occurredAt: '2026-11-21T09:00:00.000Z',
      order: { order_id: '#1001', platform_order_id: '5' },
    });
  });

  it('keeps custom lines out of the items and refuses an order without a name', () => {
    const [a] = NORMALIZERS.shopify({
      name: '#7',
      line_items: [{ product_id: 1, quantity: 2 }, { product_id: null, title: 'Tip' }],
    }, ctx('orders/create'));
    expect(a.kind === 'order' && a.order.items).toEqual([{ product_external_id: '1', quantity: 2 }]);
    expect(() => NORMALIZERS.shopify({ id: 1 }, ctx('orders/create'))).toThrow(Refusal);
  });

  it('reads a refund of a shipping amount alone as nothing to do', () => {
    expect(NORMALIZERS.shopify({ order_id: 5, refund_line_items: [] }, ctx('refunds/create'))).toEqual([
      { kind: 'ignored' },
    ]);
  });
});

describe('WooCommerce', () => {
  it('reads order.updated by its status; statuses without meaning are ignored', () => {
    const order = { id: 9, number: '9', status: 'on-hold', billing: { email: 'A@Example.com' } };
    expect(NORMALIZERS.woocommerce(order, ctx('order.updated'))).toEqual([{ kind: 'ignored' }]);
    const [a] = NORMALIZERS.woocommerce({ ...order, status: 'refunded' }, ctx('order.updated'));
    expect(a).toMatchObject({ kind: 'order', type: 'refunded', order: { order_id: '9', email: 'a@example.com' } });
  });
});

describe('Stripe', () => {
  it('lists the products named in metadata once each, and ignores a partial refund', () => {
    const [a] = NORMALIZERS.stripe({
      id: 'evt_1',
      created: 1795000000,
      data: { object: { id: 'cs_1', metadata: { plaudit_products: 'A, B,A,' } } },
    }, ctx('checkout.session.completed'));
    expect(a.kind === 'order' && a.order).toEqual({
      order_id: 'cs_1',
      items: [{ product_external_id: 'A' }, { product_external_id: 'B' }],
    });
    expect(NORMALIZERS.stripe({ data: { object: { refunded: false, payment_intent: 'pi' } } }, ctx('charge.refunded')))
      .toEqual([{ kind: 'ignored' }]);
  });
});
