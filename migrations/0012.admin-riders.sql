-- The admin panel's rider pages, messages and jobs (issue 10, docs/admin-riders.md): the indexes that keep
-- the riders list fast at 300,000 riders, and job runs that record who started them and how
-- they ended.
-- depends: 0011.link-revocation

-- Riders list, `q` by name: "name contains q" (at least 3 characters) as a trigram search.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX riders_name_trgm ON riders USING gin (name gin_trgm_ops);
-- Riders list, `q` by phone: "the phone ends with these digits" is a prefix of the reversed
-- phone (phones are stored as + and digits).
CREATE INDEX riders_phone_suffix ON riders (reverse(phone) text_pattern_ops);
-- No index per riders list filter: five of them doubled the cost of the riders upsert (the API's
-- and the CSV import's: 25 MB went from 13 s to 22 s), while the list's worst case without them,
-- a filter combination that matches nobody walking all 300,000 riders, stays near 60 ms.

-- Messages list, newest first, with an optional date range: keyset order (created_at,
-- message_id).
CREATE INDEX messages_created ON messages (created_at, message_id);

-- Job runs started by hand (`run-job`, the panel's Run now) have no scheduled slot: a run gets
-- its own id, and the slot stays unique per job for scheduled runs (NULLs are distinct).
ALTER TABLE job_runs DROP CONSTRAINT job_runs_pkey;
ALTER TABLE job_runs ADD COLUMN run_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
ALTER TABLE job_runs ALTER COLUMN slot DROP NOT NULL;
CREATE UNIQUE INDEX job_runs_slot ON job_runs (job, slot);
-- NULL while running (or for runs recorded before this migration); result is the run's one
-- line (what it did, or why it failed).
ALTER TABLE job_runs
    ADD COLUMN finished_at timestamptz(3),
    ADD COLUMN outcome     text CHECK (outcome IN ('succeeded', 'failed')),
    ADD COLUMN result      text,
    -- The admin who pressed Run now; NULL for the schedule and the command line.
    ADD COLUMN started_by  bigint REFERENCES admins ON DELETE SET NULL;
-- The jobs page and the dashboard: newest runs first.
CREATE INDEX job_runs_started ON job_runs (started_at);
