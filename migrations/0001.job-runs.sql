-- Scheduled job runs: one row per job and scheduled minute, so that with several web
-- processes on one database each scheduled run happens exactly once.
CREATE TABLE job_runs (
    job        text        NOT NULL,
    slot       timestamptz NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job, slot)
);
