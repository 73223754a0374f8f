// The `webhook` platform: Standard Webhooks (`webhook-id`, `webhook-timestamp` at most 300 s away
// from now, `webhook-signature` a space-separated list of `v1,<base64>`), the scheme the service's
// outgoing webhooks sign with (core/webhooks/signing.ts): the HMAC-SHA256 of `id.timestamp.body`,
// keyed with the base64-decoded part of the connection's `whsec_` secret.
import { fromBase64, macs, prefixed } from './hmac.ts';
import {
  type DeliveryIds,
  type Headers,
  REPLAY_WINDOW_SECONDS,
  type SignatureClaim,
  type SignatureInput,
} from './types.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const WRONG = 'wrong or stale signature';

export function standardSignature({ body, header, nowSeconds }: SignatureInput): SignatureClaim {
  const id = header('webhook-id') ?? null;
  const timestamp = header('webhook-timestamp') ?? null;
  const signature = header('webhook-signature') ?? null;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing Standard Webhooks headers' };
  try {
    decoder.decode(body);
  } catch {
    return { ok: false, reason: 'the body is not UTF-8' };
  }
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > REPLAY_WINDOW_SECONDS) {
    return { ok: false, reason: WRONG };
  }
  const given = signature.split(' ').filter((s) => s.startsWith('v1,')).map((s) => fromBase64(s.slice(3)));
  return { ok: true, signed: prefixed(`${id}.${timestamp}.`, body), signatures: macs(given), wrong: WRONG };
}

export function standardIds(header: Headers): DeliveryIds {
  return { deliveryId: header('webhook-id') ?? null, topic: null };
}
