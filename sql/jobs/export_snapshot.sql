-- Returns the id of this transaction's snapshot, for pg_dump --snapshot: the archive and the
-- row counts taken in this transaction see the same rows. No table read.
SELECT pg_export_snapshot()
