DROP INDEX job_runs_running;
ALTER TABLE job_runs DROP COLUMN alive_at;
