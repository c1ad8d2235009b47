-- Claims the oldest unclaimed running job for process $1 (another process skips the row it
-- locked). Returns the job, or no row. Served by ai_jobs_running.
UPDATE ai_jobs j
SET claimed_by = $1, claimed_at = now()
FROM (SELECT job_id
      FROM ai_jobs
      WHERE status = 'running' AND claimed_at IS NULL
      ORDER BY started_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED) AS next
WHERE j.job_id = next.job_id
RETURNING j.job_id, j.kind, j.course_id, j.language, j.source_name
