import { describe, expect, it } from 'vitest';
import { replicaAuthenticatorUrls } from '../../scripts/lib/database.mjs';

describe('npm start: the API’s replica URLs from DATABASE_REPLICA_URLS', () => {
  it('keeps each standby’s address and database, with the authenticator’s login', () => {
    const api = 'postgresql://plaudit_authenticator:s%2F3cret@primary:5432/plaudit';
    expect(
      replicaAuthenticatorUrls(' postgresql://postgres:pw@standby-a:5433/plaudit ,postgresql://standby-b/plaudit', api),
    )
      .toBe(
        'postgresql://plaudit_authenticator:s%2F3cret@standby-a:5433/plaudit,' +
          'postgresql://plaudit_authenticator:s%2F3cret@standby-b/plaudit',
      );
  });

  it('answers nothing without standbys', () => {
    expect(replicaAuthenticatorUrls(undefined, 'postgresql://a:b@h/d')).toBe('');
    expect(replicaAuthenticatorUrls(' , ', 'postgresql://a:b@h/d')).toBe('');
  });
});
