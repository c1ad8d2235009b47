-- A new generation job (running, unclaimed) by admin $1 from a file named $2 (its content
-- follows in insert_job_source). Returns job_id.
INSERT INTO ai_jobs (kind, admin_id, source_name)
VALUES ('generation', $1, $2)
RETURNING job_id
