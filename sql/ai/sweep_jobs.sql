-- Fails every job still running $1 after it started (a busy, stuck or dead process) and drops
-- their uploaded files. Returns job_id and kind of each. Served by ai_jobs_running.
WITH swept AS (
    UPDATE ai_jobs
    SET status = 'failed', error = 'timed out after 15 minutes', finished_at = now()
    WHERE status = 'running' AND started_at < now() - $1::interval
    RETURNING job_id, kind
), dropped AS (
    DELETE FROM ai_job_sources s USING swept j WHERE s.job_id = j.job_id
)
SELECT job_id, kind FROM swept
