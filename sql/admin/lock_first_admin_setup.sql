-- Serialises first-admin setups (the transaction's advisory lock): with two different setup
-- links used at once, the second statement's snapshot, taken after this lock, sees the first
-- admin and is refused. Returns nothing. No index: a lock only.
SELECT pg_advisory_xact_lock(hashtext('admin first setup'))
