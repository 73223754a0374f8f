-- An address's key (plaudit.email_key) becomes keyed: the HMAC-SHA256, with a secret the database
-- makes and only its owner reads (plaudit.signing_secrets, purpose `email_keys`), of the SHA-256
-- the key was until now (of the organization's id, a colon and the address in lower case). So a
-- dictionary of addresses no longer reverses a stored key without the secret, and every key
-- stored already is re-keyed here from itself: the erased addresses (suppressions without an
-- address, privacy_erasures, privacy_data_requests) keep matching although their address is gone.
insert into plaudit.signing_secrets (purpose, secret)
values ('email_keys', extensions.gen_random_bytes(32))
on conflict (purpose) do nothing;

comment on table plaudit.signing_secrets is 'Secrets made in the database, one per purpose (review_request_links: the links of review-request e-mails; email_keys: the keys of addresses), that only the owner reads.';

update plaudit.email_suppressions x
   set email_key = extensions.hmac(x.email_key, s.secret, 'sha256')
  from plaudit.signing_secrets s where s.purpose = 'email_keys';
update plaudit.privacy_erasures x
   set email_key = extensions.hmac(x.email_key, s.secret, 'sha256')
  from plaudit.signing_secrets s where s.purpose = 'email_keys';
update plaudit.privacy_data_requests x
   set email_key = extensions.hmac(x.email_key, s.secret, 'sha256')
  from plaudit.signing_secrets s where s.purpose = 'email_keys';
