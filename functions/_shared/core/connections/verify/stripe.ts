// Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=…]` where v1 is the hex HMAC-SHA256 of
// `t.` and the raw body, keyed with the endpoint's `whsec_…` secret as a string; t at most 300 s
// away from now (replay). The delivery id and topic are the event's `id` and `type`, in the body.
import { fromHex, macs, prefixed } from './hmac.ts';
import { REPLAY_WINDOW_SECONDS, type SignatureClaim, type SignatureInput } from './types.ts';

export function stripeSignature({ body, header, nowSeconds }: SignatureInput): SignatureClaim {
  const given = header('stripe-signature');
  if (!given) return { ok: false, reason: 'missing Stripe-Signature' };
  const parts = given.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const candidates = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!t || !/^\d+$/.test(t) || candidates.length === 0) return { ok: false, reason: 'malformed Stripe-Signature' };
  if (Math.abs(nowSeconds - Number(t)) > REPLAY_WINDOW_SECONDS) return { ok: false, reason: 'stale signature' };
  return {
    ok: true,
    signed: prefixed(`${t}.`, body),
    signatures: macs(candidates.map(fromHex)),
    wrong: 'wrong signature',
  };
}
