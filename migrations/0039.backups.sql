-- Backups that survive the machine (docs/backups.md#backups): each archive the backup job
-- wrote, with its size and how long it took, for the metrics an alert watches from any
-- instance (a gauge in one process's memory would be lost at a restart and unknown to the
-- others); the restore drill's last success is read from job_runs.
-- depends: 0034.webhook-event-facts

CREATE TABLE backups (
    archive     text PRIMARY KEY,
    finished_at timestamptz      NOT NULL DEFAULT now(),
    bytes       bigint           NOT NULL,
    seconds     double precision NOT NULL
);
CREATE INDEX backups_finished ON backups (finished_at);

-- The metrics' "last success of job X".
CREATE INDEX job_runs_succeeded ON job_runs (job, finished_at) WHERE outcome = 'succeeded';
