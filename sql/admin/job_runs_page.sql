-- The jobs page: the $1 newest job runs with job, started_at, finished_at, outcome, result,
-- slot (NULL: started by hand) and the name of the admin who started it. Served by
-- job_runs_started (read backwards), admins' key.
SELECT j.job, j.slot, j.started_at, j.finished_at, j.outcome, j.result, a.name AS started_by
FROM job_runs j
LEFT JOIN admins a ON a.admin_id = j.started_by
ORDER BY j.started_at DESC, j.run_id DESC
LIMIT $1
