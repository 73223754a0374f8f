import { describe, expect, it } from 'vitest';
import { fieldsGiven } from './patch.ts';

describe('fieldsGiven', () => {
  it('keeps the named fields a patch gives, null included, and leaves out the undefined and the unnamed', () => {
    const patch = { name: 'Acme', website: null, description: undefined, secret: 'x' };
    expect(fieldsGiven(patch, ['name', 'website', 'description'])).toEqual({ name: 'Acme', website: null });
    expect(Object.keys(fieldsGiven(patch, ['name', 'website', 'description']))).toEqual(['name', 'website']);
  });

  it('gives nothing for an empty patch', () => {
    expect(fieldsGiven({} as { name?: string }, ['name'])).toEqual({});
  });
});
