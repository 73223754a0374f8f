-- The table holds the keys of every POST that takes an Idempotency-Key, not only bulk review requests.
comment on table plaudit.idempotency_keys is 'Idempotency keys of POST requests: the first successful answer per organization and key, with the route and a hash of the request (path and body), kept 24 hours.';
