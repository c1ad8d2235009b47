-- Returns 1 when this process claims the run of job $1 for the scheduled minute $2, and no
-- row when another process already ran it. Served by the primary key (job, slot).
INSERT INTO job_runs (job, slot) VALUES ($1, $2)
ON CONFLICT DO NOTHING
RETURNING 1
