-- A new generation job (running, unclaimed) by admin $1 from file $2 named $3. Returns job_id.
INSERT INTO ai_jobs (kind, admin_id, source, source_name)
VALUES ('generation', $1, $2, $3)
RETURNING job_id
