// What a platform's verifier answers of an inbound request: whether its signature holds, and the
// delivery id and topic the platform gives (for Stripe and the `webhook` platform they are in the
// body, read once the signature holds).
export type Headers = (name: string) => string | undefined;

/** What a platform's headers say of an event: its delivery id and topic (Stripe's are in the body). */
export interface DeliveryIds {
  deliveryId: string | null;
  topic: string | null;
}

export type Verdict =
  | ({ ok: true } & DeliveryIds)
  | { ok: false; reason: string };

export interface VerifyInput {
  secret: string;
  body: Uint8Array;
  header: Headers;
  /** Unix seconds: the clock replay windows are measured with (tests inject it). */
  nowSeconds: number;
}

/** How old a timestamped signature may be (Stripe, Standard Webhooks), in seconds. */
export const REPLAY_WINDOW_SECONDS = 300;
