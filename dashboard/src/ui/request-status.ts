// A review request's status in a shop owner's words and its badge's tone: the requests section
// and an order's timeline both show it.
import type { Schemas } from '../api.ts';

export type RequestStatus = Schemas['ReviewRequest']['status'];

export const STATUS_LABEL: Record<RequestStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  completed: 'Reviewed',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  unsubscribed: 'Unsubscribed',
  failed: 'Not sent',
  canceled: 'Canceled (order cancelled or refunded)',
};

export const STATUS_TONE: Record<RequestStatus, string> = {
  queued: 'warn',
  sent: 'plain',
  delivered: 'plain',
  opened: 'plain',
  clicked: 'plain',
  completed: 'good',
  bounced: 'bad',
  complained: 'bad',
  unsubscribed: 'bad',
  failed: 'bad',
  canceled: 'plain',
};
