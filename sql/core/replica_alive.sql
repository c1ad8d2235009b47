-- Asks the replica whether it answers (a pooled connection to a replica that was stopped fails
-- here, before a read starts on it). Returns true on a standby. No table read.
SELECT pg_is_in_recovery()
