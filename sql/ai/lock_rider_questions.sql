-- Serialises the hourly count of rider $1's questions across processes until the transaction
-- ends (two questions at once cannot both be the 40th). Returns nothing.
SELECT pg_advisory_xact_lock(hashtextextended('assistant_questions:' || $1, 0))
