-- Returns true when job $1 has an unfinished run (another process runs it now). Served by
-- job_runs_running.
SELECT EXISTS (SELECT 1 FROM job_runs WHERE job = $1 AND finished_at IS NULL)
