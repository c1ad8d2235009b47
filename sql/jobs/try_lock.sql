-- Returns true when this session now holds the job's advisory lock ($1: lock id).
SELECT pg_try_advisory_lock($1)
