import { describe, expect, it } from 'vitest';
import { disabledWhy, eventsError, eventsText, prettyJson, responseText } from './words.ts';

const delivery = (d: { status: string; last_status_code?: number | null; last_error?: string | null }) =>
  ({ last_status_code: null, last_error: null, ...d }) as Parameters<typeof responseText>[0];

describe('webhook words', () => {
  it('says all events for the wildcard, and lists the others', () => {
    expect(eventsText(['*'])).toBe('All events');
    expect(eventsText(['review.created', 'export.completed'])).toBe('review.created, export.completed');
  });

  it("gives the API's reason for an endpoint that is off, unless the team turned it off", () => {
    expect(disabledWhy(null)).toBe('turned off by your team');
    expect(disabledWhy('disabled through the API')).toBe('turned off by your team');
    expect(disabledWhy('failing for 5 days')).toBe('failing for 5 days');
  });

  it("finds the events' message whether the API names the list or one item", () => {
    const err = (field: string) => ({ errors: [{ field: 'url', message: 'bad url' }, { field, message: 'pick one' }] });
    expect(eventsError(err('events'))).toBe('pick one');
    expect(eventsError(err('events.2'))).toBe('pick one');
    expect(eventsError(err('eventsx'))).toBeUndefined();
    expect(eventsError(undefined)).toBeUndefined();
  });

  it('says what the endpoint answered: a status, an error, or nothing yet', () => {
    expect(responseText(delivery({ status: 'failed', last_status_code: 500, last_error: 'x' }))).toBe('HTTP 500');
    expect(responseText(delivery({ status: 'failed', last_error: 'timed out' }))).toBe('timed out');
    expect(responseText(delivery({ status: 'pending' }))).toBe('Not sent yet');
    expect(responseText(delivery({ status: 'cancelled' }))).toBe('—');
  });

  it('indents a JSON body and leaves any other text as it is', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});
