-- The 10 newest job runs: job, started_at. Served by a scan of job_runs (one row per job and
-- scheduled minute, few).
SELECT job, started_at FROM job_runs ORDER BY started_at DESC LIMIT 10
