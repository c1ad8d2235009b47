-- Releases the job's advisory lock ($1: lock id) held by this session.
SELECT pg_advisory_unlock($1)
