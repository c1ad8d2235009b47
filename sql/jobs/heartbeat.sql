-- Marks run $1 as still running (its process is alive). Returns nothing. Served by the
-- primary key.
UPDATE job_runs SET alive_at = now() WHERE run_id = $1
