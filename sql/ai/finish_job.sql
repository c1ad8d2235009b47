-- Ends running job $1 with status $2 ('succeeded' or 'failed'), error $3 and course $4 (null
-- keeps the stored one); the source file is dropped. Returns the job's kind, or no row when it
-- had already ended (then nothing changes). Served by the primary key.
UPDATE ai_jobs
SET status = $2, error = $3, course_id = coalesce($4, course_id), finished_at = now(),
    source = NULL
WHERE job_id = $1 AND status = 'running'
RETURNING kind
