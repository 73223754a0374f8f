// The review requests' codes in the words of a shop owner: statuses, why an address is suppressed,
// and each event of a request's timeline.
import type { Schemas } from '../../api.ts';
import { formatDateTime } from '../../ui/format.ts';

export type ReviewRequest = Schemas['ReviewRequest'];
export type { RequestStatus } from '../../ui/request-status.ts';
type RequestEvent = Schemas['ReviewRequestEvent'];
type Suppression = Schemas['Suppression'];

export { STATUS_LABEL, STATUS_TONE } from '../../ui/request-status.ts';

export const SUPPRESSION_REASON: Record<Suppression['reason'], string> = {
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  manual: 'Added by your team',
  erased: "Erased at the reviewer's request",
};

/** One event of a request's timeline: its title, and a sentence that explains it. */
export function eventWords(e: RequestEvent): { title: string; detail?: string } {
  const d = e.data ?? {};
  switch (e.type) {
    case 'queued':
      return {
        title: 'Queued',
        detail: d.send_at && Date.parse(d.send_at) > Date.parse(e.occurred_at) + 60_000
          ? `To go out ${formatDateTime(d.send_at)}.`
          : undefined,
      };
    case 'sent':
      return { title: 'E-mail sent', detail: 'The mail server accepted it.' };
    case 'delivered':
      return { title: 'Delivered', detail: "The customer's mail server received it." };
    case 'opened':
      return { title: 'Opened', detail: 'Counted when the e-mail loads its images; some mail apps hide opens.' };
    case 'clicked':
      return { title: 'Link clicked', detail: 'The customer followed a link to your review form.' };
    case 'completed':
      return { title: 'Review written' };
    case 'bounced':
      return {
        title: 'Bounced',
        detail: d.bounce?.message ?? 'The address does not accept mail; it will not be asked again.',
      };
    case 'soft_bounced':
      return { title: 'Temporary delivery problem', detail: d.bounce?.message ?? undefined };
    case 'delivery_delayed':
      return { title: 'Delivery delayed', detail: 'The mail provider keeps trying.' };
    case 'complained':
      return { title: 'Marked as spam', detail: 'The address will not be asked again.' };
    case 'unsubscribed':
      return { title: 'Unsubscribed', detail: 'The customer asked for no more review requests.' };
    case 'failed':
      return d.reason === 'suppressed'
        ? {
          title: 'Not sent',
          detail: `The address is on your suppression list${
            d.suppression_reason
              ? ` (${SUPPRESSION_REASON[d.suppression_reason as Suppression['reason']] ?? d.suppression_reason})`
              : ''
          }.`,
        }
        : { title: 'Sending failed', detail: d.error };
    case 'reminder_queued':
      return { title: `Reminder ${d.reminder ?? ''} queued`.replace('  ', ' ') };
    case 'reminder_sent':
      return { title: `Reminder ${d.reminder ?? ''} sent`.replace('  ', ' ') };
    default:
      return { title: e.type };
  }
}
