-- Fails every job still running $1 after it started (a busy, stuck or dead process). Returns
-- job_id and kind of each. Served by ai_jobs_running.
UPDATE ai_jobs
SET status = 'failed', error = 'timed out after 15 minutes', finished_at = now(), source = NULL
WHERE status = 'running' AND started_at < now() - $1::interval
RETURNING job_id, kind
