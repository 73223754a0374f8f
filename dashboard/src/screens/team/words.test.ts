import { describe, expect, it } from 'vitest';
import { A_ROLE, INVITATION_STATUS, ROLE_DOES, ROLE_LABEL, sentence } from './words.ts';

describe('team words', () => {
  it("start the API's messages with a capital letter", () => {
    expect(sentence('this address is already a member')).toBe('This address is already a member');
    expect(sentence('')).toBe('');
  });

  it('name each role, and each invitation state with a tone', () => {
    for (const words of [ROLE_LABEL, A_ROLE, ROLE_DOES]) {
      expect(Object.keys(words).sort()).toEqual(['admin', 'member', 'owner']);
    }
    expect(INVITATION_STATUS.revoked).toEqual(['Withdrawn', 'bad']);
  });
});
