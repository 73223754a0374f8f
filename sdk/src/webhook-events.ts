// The events a webhook endpoint receives, `{ event, timestamp, data }`, typed from the `webhooks`
// section of the generated OpenAPI document, by event name (never by schema or operation name).
import type { webhooks } from './generated/openapi.ts';

export type WebhookEventType = keyof webhooks & string;

type Payload<E extends WebhookEventType> = NonNullable<webhooks[E]['post']> extends
  { requestBody?: { content: { 'application/json': infer J } } } ? J
  : never;

/** The `data` of each event, by event name. */
export type WebhookEventData = { [E in WebhookEventType]: Payload<E> extends { data: infer D } ? D : never };

/** A verified delivery: narrow on `event` to get the type of `data`. */
export type WebhookEvent = { [E in WebhookEventType]: Payload<E> }[WebhookEventType];

/** An event to sign for a test: `timestamp` may be left out (the signing time is used). */
export type TestWebhookEvent = {
  [E in WebhookEventType]: Omit<Payload<E>, 'timestamp'> & { timestamp?: string };
}[WebhookEventType];
