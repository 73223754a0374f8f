// What a platform's signature scheme reads of an inbound request, without the connection's secret:
// the bytes the platform signs and the MACs its headers carry, for the database to check with the
// secret it keeps (plaudit.connection_signature_holds), or why there is nothing to check.
export type Headers = (name: string) => string | undefined;

/** What a platform's headers say of an event: its delivery id and topic (Stripe's are in the body). */
export interface DeliveryIds {
  deliveryId: string | null;
  topic: string | null;
}

export type SignatureClaim =
  | {
    ok: true;
    /** The bytes the platform signs: the raw body, Stripe's `t.body`, Standard Webhooks' `id.timestamp.body`. */
    signed: Uint8Array;
    /** The HMAC-SHA256 values the headers carry, decoded (one must be the signed bytes' under the key). */
    signatures: Uint8Array[];
    /** The refusal when none holds. */
    wrong: string;
  }
  | { ok: false; reason: string };

export interface SignatureInput {
  body: Uint8Array;
  header: Headers;
  /** Unix seconds: the clock replay windows are measured with (tests inject it). */
  nowSeconds: number;
}

/** How old a timestamped signature may be (Stripe, Standard Webhooks), in seconds. */
export const REPLAY_WINDOW_SECONDS = 300;
