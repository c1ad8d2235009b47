-- Serialises disabling admins and changing their roles (the transaction's advisory lock), so
-- two owners disabling or demoting each other at once cannot leave no active owner: the
-- second one's next statement sees the first. Returns nothing. No index: a lock only.
SELECT pg_advisory_xact_lock(hashtext('admin disable'))
