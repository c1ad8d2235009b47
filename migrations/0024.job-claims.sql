-- A job runs once at a time across every instance by its unfinished job_runs row, not by a
-- session-level advisory lock (which a transaction pooler cannot hold between transactions).
-- alive_at is the running process's heartbeat: a run whose process stopped without finishing
-- it is abandoned once the heartbeat is old, so the job is not blocked forever.
ALTER TABLE job_runs ADD COLUMN alive_at timestamptz NOT NULL DEFAULT now();
UPDATE job_runs SET alive_at = coalesce(finished_at, started_at);
-- Runs recorded before finished_at existed never finish: keep the newest per job unfinished
-- (the claim abandons it once its heartbeat is old), close the older ones.
UPDATE job_runs r SET finished_at = r.started_at
WHERE r.finished_at IS NULL
  AND EXISTS (
      SELECT 1 FROM job_runs n WHERE n.job = r.job AND n.finished_at IS NULL AND n.run_id > r.run_id
  );
-- At most one running run per job: the claim's conflict target.
CREATE UNIQUE INDEX job_runs_running ON job_runs (job) WHERE finished_at IS NULL;
