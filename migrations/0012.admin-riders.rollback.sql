-- Undoes 0012.admin-riders. Runs without a slot (started by hand) cannot stay under the old key.
DROP INDEX job_runs_started;
DELETE FROM job_runs WHERE slot IS NULL;
ALTER TABLE job_runs DROP COLUMN started_by, DROP COLUMN result, DROP COLUMN outcome,
    DROP COLUMN finished_at;
DROP INDEX job_runs_slot;
ALTER TABLE job_runs DROP COLUMN run_id;
ALTER TABLE job_runs ALTER COLUMN slot SET NOT NULL;
ALTER TABLE job_runs ADD PRIMARY KEY (job, slot);
DROP INDEX messages_created;
DROP INDEX riders_phone_suffix;
DROP INDEX riders_name_trgm;
DROP EXTENSION IF EXISTS pg_trgm;
