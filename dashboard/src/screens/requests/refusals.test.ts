import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api.ts';
import { fieldOfConflict } from './refusals.ts';

describe('fieldOfConflict', () => {
  it('puts a reference used before next to the reference field', () => {
    const e = fieldOfConflict(new ApiError(409, 'external_id: a request with this external_id exists')) as ApiError;
    expect(e.status).toBe(409);
    expect(e.field('external_id')).toBe(
      'A request with this reference exists already, so this one is not sent: nobody is asked twice.',
    );
  });

  it('puts a form that is gone next to the form field', () => {
    const e = fieldOfConflict(new ApiError(404, 'form_id: no active review form')) as ApiError;
    expect(e.field('form_id')).toBe('This form is not active any more: choose another one.');
  });

  it('leaves every other error as it is', () => {
    const other = new ApiError(409, 'something else');
    expect(fieldOfConflict(other)).toBe(other);
    const invalid = new ApiError(422, 'external_id: too long');
    expect(fieldOfConflict(invalid)).toBe(invalid);
    const plain = new Error('network');
    expect(fieldOfConflict(plain)).toBe(plain);
  });
});
