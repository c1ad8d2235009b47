-- Locks job $1 while it is still running (the caller's transaction then stores its result).
-- Returns true, or no row when the sweep failed it meanwhile. Served by the primary key.
SELECT true FROM ai_jobs WHERE job_id = $1 AND status = 'running' FOR UPDATE
