-- Returns one row for the metrics: the last backup's finish (epoch seconds), size and duration,
-- and the restore drill's last success (epoch seconds); NULLs before the first of each. Served
-- by backups_finished and job_runs_succeeded (one index row each).
SELECT extract(epoch FROM b.finished_at)::float8 AS backup_finished,
       b.bytes::float8 AS backup_bytes,
       b.seconds AS backup_seconds,
       (SELECT extract(epoch FROM max(finished_at))::float8
        FROM job_runs WHERE job = 'restore-drill' AND outcome = 'succeeded') AS drill_succeeded
FROM (SELECT 1) one
LEFT JOIN LATERAL (
    SELECT finished_at, bytes, seconds FROM backups ORDER BY finished_at DESC LIMIT 1
) b ON true
