-- Records the start of a run of job $1 when no run of it is unfinished: for the scheduled
-- minute $2 only when no process ran it yet, always for a run started by hand ($2 NULL); $3 the
-- admin who started it, or NULL. Returns the run_id, or no row when another run is unfinished
-- (job_runs_running) or another process already ran the slot (job_runs_slot).
INSERT INTO job_runs (job, slot, started_by) VALUES ($1, $2, $3)
ON CONFLICT DO NOTHING
RETURNING run_id
