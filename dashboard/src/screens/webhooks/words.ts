// Webhooks in the words of a shop owner: the events an endpoint can receive, a delivery's status,
// why an endpoint is off, and what an endpoint answered.
import type { Schemas } from '../../api.ts';

type Delivery = Schemas['WebhookDelivery'];
/** An event an endpoint can subscribe to, or `*` for all of them. */
export type EventName = Schemas['WebhookInput']['events'][number];

export const EVENTS: { value: Exclude<EventName, '*'>; label: string }[] = [
  { value: 'review.created', label: 'A review is written' },
  { value: 'review.verified', label: "A review's verification changes (verified, approved or rejected)" },
  { value: 'review.moderated', label: 'A review is hidden or shown again' },
  { value: 'review.replied', label: 'Your public reply is published, edited or withdrawn' },
  { value: 'review.anonymized', label: "A reviewer's address is erased at their request" },
  { value: 'export.completed', label: 'An export is ready to download' },
  { value: 'import.completed', label: 'An import of reviews from another platform is done' },
];

export const DELIVERY_STATUS: Record<Delivery['status'], { label: string; tone: string }> = {
  pending: { label: 'Queued', tone: 'warn' },
  succeeded: { label: 'Delivered', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
  cancelled: { label: 'Cancelled', tone: 'plain' },
};

/** The events an endpoint receives, in a line. */
export const eventsText = (events: string[]) => (events.includes('*') ? 'All events' : events.join(', '));

/** Why an endpoint is off: the API's reason, or the team's doing. */
export const disabledWhy = (reason: string | null) =>
  !reason || reason === 'disabled through the API' ? 'turned off by your team' : reason;

/** The API's message for the events, whichever item it names (`events` or `events.2`). */
export const eventsError = (e: { errors: { field: string; message: string }[] } | undefined) =>
  e?.errors.find((x) => x.field === 'events' || x.field.startsWith('events.'))?.message;

/** What the endpoint answered last: its status code, the error, or that nothing was sent yet. */
export function responseText(d: Delivery): string {
  if (d.last_status_code) return `HTTP ${d.last_status_code}`;
  if (d.last_error) return d.last_error;
  return d.status === 'pending' ? 'Not sent yet' : '—';
}

/** A delivery's body, indented when it is JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
