// The `webhook` platform: Standard Webhooks (`webhook-id`, `webhook-timestamp` at most 300 s away
// from now, `webhook-signature` `v1,<base64>`), checked by the service's own Standard Webhooks
// code (core/webhooks/signing.ts), the one that signs its outgoing webhooks' receivers' way.
import { verifyStandardSignature } from '../../webhooks/signing.ts';
import { type DeliveryIds, type Headers, REPLAY_WINDOW_SECONDS, type Verdict, type VerifyInput } from './types.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

export async function verifyStandardWebhook({ secret, body, header, nowSeconds }: VerifyInput): Promise<Verdict> {
  const id = header('webhook-id') ?? null;
  const timestamp = header('webhook-timestamp') ?? null;
  const signature = header('webhook-signature') ?? null;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing Standard Webhooks headers' };
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    return { ok: false, reason: 'the body is not UTF-8' };
  }
  const ok = await verifyStandardSignature(secret, text, { id, timestamp, signature }, {
    toleranceSeconds: REPLAY_WINDOW_SECONDS,
    nowSeconds,
  });
  if (!ok) return { ok: false, reason: 'wrong or stale signature' };
  return { ok: true, ...standardIds(header) };
}

export function standardIds(header: Headers): DeliveryIds {
  return { deliveryId: header('webhook-id') ?? null, topic: null };
}
