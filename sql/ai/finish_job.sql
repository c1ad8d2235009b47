-- Ends running job $1 with status $2 ('succeeded' or 'failed'), error $3 and course $4 (null
-- keeps the stored one); its uploaded file is dropped. Returns the job's kind, or no row when
-- it had already ended (then nothing changes). Served by the primary keys.
WITH ended AS (
    UPDATE ai_jobs
    SET status = $2, error = $3, course_id = coalesce($4, course_id), finished_at = now()
    WHERE job_id = $1 AND status = 'running'
    RETURNING job_id, kind
), dropped AS (
    DELETE FROM ai_job_sources s USING ended e WHERE s.job_id = e.job_id
)
SELECT kind FROM ended
