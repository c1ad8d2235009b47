-- The chunks of job $1's uploaded file, in order. Served by the primary key of ai_job_sources.
SELECT chunk FROM ai_job_sources WHERE job_id = $1 ORDER BY position
