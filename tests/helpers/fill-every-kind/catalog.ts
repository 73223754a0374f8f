// The product catalog (after release 0.2.0): products synced as the API syncs them, a group of
// variants, reviews of products (public, hidden, verified by an order holding the group), an
// order with items, and a review request naming products, one reviewed through its page.
import { expectAnswer, type Org, requestToken } from './context.ts';
import { createRequests, submitRequested } from './review-requests.ts';
import { type Forms, moderate, submitReview } from './reviews.ts';

export async function fillCatalog(org: Org, forms: Forms) {
  if (!org.schema.has('products')) return;
  await fillProducts(org);
  if (!org.schema.has('reviews', 'product_id')) return;
  await fillProductReviews(org, forms);
  if (org.schema.has('order_items')) await fillOrderItems(org, forms);
  if (org.schema.has('review_request_products')) await fillRequestedProducts(org, forms);
}

/** Three products: two variants of a group, one archived. */
async function fillProducts(org: Org) {
  await org.tenant(async (tx) => {
    const outcomes = await tx<{ outcome: string | null }[]>`select outcome from plaudit.upsert_products(${
      tx.json([
        { index: 0, external_id: 'MUG-S', name: 'Mug, small', gtin: '4006381333931', group: 'mug', brand: 'Acme' },
        { index: 1, external_id: 'MUG-L', name: 'Mug, large', sku: 'MUG-L-01', group: 'mug' },
        { index: 2, external_id: 'TEE-OLD', name: 'Old tee', url: `https://${org.domain}/tee`, archived: true },
      ])
    })`;
    expectAnswer('upsert_products', outcomes.map((o) => o.outcome).join(), 'created,created,created');
  });
}

/** Reviews of a product through the public submission: one public, one hidden by moderation. */
async function fillProductReviews(org: Org, forms: Forms) {
  const mug = { fields: { product: 'Mug' } };
  await submitReview(org, forms.open, `kim@${org.domain}`, { ...mug, rating: 3, product: 'MUG-L' });
  const advert = await submitReview(org, forms.open, `lex@${org.domain}`, { ...mug, rating: 1, product: 'MUG-S' });
  await moderate(org, advert.id, 'hide', 'Advertises another shop');
}

/**
 * An order with items (a product of the catalog and one it does not know yet), and its buyer's
 * review of the group's other variant on the purchase-proof form, verified by that order.
 */
async function fillOrderItems(org: Org, forms: Forms) {
  const buyer = `mia@${org.domain}`;
  await org.tenant((tx) =>
    tx`select * from plaudit.upsert_orders(${org.id}, ${
      tx.json([{
        order_id: 'A-1003',
        email: buyer,
        items: [{ product_external_id: 'MUG-S', quantity: 2 }, { product_external_id: 'GIFT-CARD', quantity: 1 }],
      }])
    })`
  );
  const proven = await submitReview(org, forms.proof, buyer, { rating: 4, orderId: 'A-1003', product: 'MUG-L' });
  expectAnswer('submit_review of a product bought in its group', proven.verification_status, 'verified');
}

/** A review request naming two products, the small mug reviewed through its page. */
async function fillRequestedProducts(org: Org, forms: Forms) {
  const shopper = `shopper@${org.domain}`;
  await createRequests(org, [{ email: shopper, name: 'Sam', form_id: forms.open, products: ['MUG-S', 'MUG-L'] }]);
  const shopped = await submitRequested(org, await requestToken(org.sql, shopper), {
    name: 'Sam',
    email: shopper,
    rating: 4,
    content: 'The small mug is just right.',
    product: 'MUG-S',
  });
  expectAnswer('submit_requested_review of a product', shopped.verification_status, 'verified');
}
