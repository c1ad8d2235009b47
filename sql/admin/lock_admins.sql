-- Serialises disabling admins (the transaction's advisory lock), so two admins disabling each
-- other at once cannot leave no active admin: the second one's next statement sees the first.
-- Returns nothing. No index: a lock only.
SELECT pg_advisory_xact_lock(hashtext('admin disable'))
