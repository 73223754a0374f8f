// What goes out: webhook endpoints, the worker's deliveries and attempts, the API's test event,
// and CDN purges sent by the worker.
import type { Org } from './context.ts';

export interface Endpoints {
  everything: string;
  reviews: string;
  gone: string;
}

/** Webhook endpoints, made before anything happens so that every event fans out to deliveries. */
export async function fillEndpoints(org: Org): Promise<Endpoints> {
  const endpoint = (url: string, events: string[], description: string | null) =>
    org.tenant(async (tx) => {
      const [e] = await tx<{ id: string }[]>`
        select id from plaudit.create_webhook_endpoint(${org.id}, ${url}, ${tx.array(events)}, ${description})`;
      return e.id;
    });
  const everything = await endpoint(`https://hooks.${org.domain}/all`, ['*'], 'Everything');
  const reviews = await endpoint(`https://hooks.${org.domain}/reviews`, ['review.created', 'review.moderated'], null);
  const gone = await endpoint(`https://old-hooks.${org.domain}/reviews`, ['review.created'], 'Retired receiver');
  await org.tenant((tx) => tx`select * from plaudit.rotate_webhook_secret(${reviews})`);
  return { everything, reviews, gone };
}

/**
 * Webhook deliveries: the worker claims what every event fanned out; the retired receiver answers
 * 410 (and is disabled); the reviews receiver takes the others, but slowly fails the last one (its
 * endpoint is left failing and slow, the delivery waiting for its retry); the rest succeed. Then
 * the API's "send a test event".
 */
export async function fillDeliveries(org: Org, endpoints: Endpoints, reviewId: string) {
  const deliveries = await org.worker((tx) =>
    tx<{ id: string; claim_token: string; endpoint_id: string }[]>`
      select id, claim_token, endpoint_id from plaudit.claim_webhook_deliveries(500, 60, 100, array[${org.id}::uuid])`
  );
  const retried = deliveries.filter((d) => d.endpoint_id === endpoints.reviews).at(-1)?.id;
  for (const d of deliveries) {
    const outcome = d.endpoint_id === endpoints.gone ? 'gone' : d.id === retried ? 'retry' : 'succeeded';
    const status = { gone: 410, retry: 500, succeeded: 200 }[outcome];
    await org.worker((tx) =>
      tx`select plaudit.record_webhook_attempt(${d.id}, ${d.claim_token}, ${status}, ${outcome === 'retry' ? 1500 : 40},
           ${outcome === 'retry' ? 'HTTP 500' : null}, ${`{"status":${status}}`}, ${outcome},
           ${outcome === 'retry' ? 30000 : null}, 432000, 1000)`
    );
  }
  if (!deliveries.some((d) => d.endpoint_id === endpoints.everything)) throw new Error('no delivery was fanned out');
  await org.tenant(async (tx) => {
    const [test] = await tx<{ id: string; claim_token: string }[]>`
      select id, claim_token from plaudit.create_test_delivery(${endpoints.everything}, 'review.created', ${
      tx.json({ id: reviewId, rating: 5 })
    })`;
    await tx`select plaudit.record_test_delivery(${test.id}, ${test.claim_token}, 204, 35, null, '', true)`;
  });
}

/**
 * The CDN purge the public changes so far asked for (one per organization, coalesced), claimed
 * and sent by the worker: the CDN takes it, or answers 503 and it waits for its retry. Later
 * changes ask for the next one, left pending. CDN purges came after release 0.2.0.
 */
export async function fillCdnPurges(org: Org) {
  if (!org.schema.has('cdn_purges')) return;
  const claimed = await org.worker((tx) =>
    tx<{ claim_token: string }[]>`
      select claim_token from plaudit.claim_cdn_purges(100, 60, array[${org.id}::uuid])`
  );
  if (claimed.length === 0) throw new Error('no CDN purge was asked for');
  const sent = org.cdnTakesPurges;
  await org.worker((tx) =>
    tx`select plaudit.record_cdn_purge(${claimed[0].claim_token}, ${org.id}, ${sent},
         ${sent ? null : 'Varnish: HTTP 503'}, ${sent ? null : 60000})`
  );
}
