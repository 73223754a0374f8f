-- The API and the worker keep their statements prepared (one round trip each instead of two),
-- but every execution is planned for its own values. A generic plan, which PostgreSQL would
-- switch to after five executions, cannot see a page's offset, a filter's selectivity or which
-- tenant is asking, and picked slower plans for deep pages of the review list. Planning these
-- short statements costs far less than the round trip that preparing saves.
alter role plaudit_authenticator set plan_cache_mode = force_custom_plan;
