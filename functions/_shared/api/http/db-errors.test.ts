import { describe, expect, it } from 'vitest';
import { apiErrorFromDb } from './db-errors.ts';

describe('apiErrorFromDb', () => {
  it('answers a guard that refuses a change (restrict_violation) with 409 and its message, never a 5xx', () => {
    const err = apiErrorFromDb({
      code: '23001',
      message: 'a review cannot be rewritten: only moderation and verification may change it',
    });
    expect(err?.status).toBe(409);
    expect(err?.message).toBe('a review cannot be rewritten: only moderation and verification may change it');
  });

  it('names the field of a CHECK constraint', () => {
    const err = apiErrorFromDb({ code: '23514', constraint_name: 'reviews_content_check', table_name: 'reviews' });
    expect(err?.status).toBe(422);
    expect(err?.message).toBe('content: is invalid');
  });

  it('leaves what it does not expect to the error handler', () => {
    expect(apiErrorFromDb({ code: '42501', message: 'permission denied for table reviews' })).toBeUndefined();
    expect(apiErrorFromDb(new Error('boom'))).toBeUndefined();
  });
});
