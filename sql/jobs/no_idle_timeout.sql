-- Lifts the idle-in-transaction timeout for this transaction only: the backup's snapshot
-- transaction waits idle while pg_dump reads it. Returns nothing; reads no table.
SET LOCAL idle_in_transaction_session_timeout = 0
