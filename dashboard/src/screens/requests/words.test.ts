import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../ui/format.ts';
import { eventWords, STATUS_LABEL, STATUS_TONE } from './words.ts';

const at = '2026-11-22T10:00:00.000Z';
const event = (type: string, data: Record<string, unknown> = {}) => ({ type, occurred_at: at, data });

describe('eventWords', () => {
  it('says when a queued request goes out, only when that is later than the event', () => {
    const later = '2026-11-23T09:00:00.000Z';
    expect(eventWords(event('queued', { send_at: later }))).toEqual({
      title: 'Queued',
      detail: `To go out ${formatDateTime(later)}.`,
    });
    expect(eventWords(event('queued', { send_at: at }))).toEqual({ title: 'Queued', detail: undefined });
  });

  it("tells a suppressed address from a failed send, with the suppression's reason", () => {
    expect(eventWords(event('failed', { reason: 'suppressed', suppression_reason: 'bounced' }))).toEqual({
      title: 'Not sent',
      detail: 'The address is on your suppression list (Bounced).',
    });
    expect(eventWords(event('failed', { reason: 'suppressed' })).detail).toBe(
      'The address is on your suppression list.',
    );
    expect(eventWords(event('failed', { reason: 'send_failed', error: 'SMTP 550' }))).toEqual({
      title: 'Sending failed',
      detail: 'SMTP 550',
    });
  });

  it("uses a bounce's own message, and numbers reminders", () => {
    expect(eventWords(event('bounced', { bounce: { message: 'mailbox full' } })).detail).toBe('mailbox full');
    expect(eventWords(event('bounced')).detail).toBe('The address does not accept mail; it will not be asked again.');
    expect(eventWords(event('reminder_sent', { reminder: 2 })).title).toBe('Reminder 2 sent');
    expect(eventWords(event('reminder_queued')).title).toBe('Reminder queued');
  });

  it('names an event it does not know by its type', () => {
    expect(eventWords(event('something_new'))).toEqual({ title: 'something_new' });
  });
});

describe('statuses', () => {
  it('have words and a tone each', () => {
    expect(Object.keys(STATUS_TONE).sort()).toEqual(Object.keys(STATUS_LABEL).sort());
    expect(STATUS_LABEL.completed).toBe('Reviewed');
  });
});
