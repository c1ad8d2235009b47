-- Ends the unfinished run of job $1 whose process stopped sending its heartbeat more than $2
-- ago (killed, restarted mid-run), so the job can run again. Returns the run_id of the run
-- abandoned, or no row. Served by job_runs_running.
UPDATE job_runs
SET finished_at = now(), outcome = 'failed', result = 'abandoned: its process stopped mid-run'
WHERE job = $1 AND finished_at IS NULL AND alive_at < now() - $2::interval
RETURNING run_id
