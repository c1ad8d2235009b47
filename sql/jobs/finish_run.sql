-- Records how run $1 ended: $2 outcome ('succeeded' or 'failed'), $3 its one line (what it did,
-- or why it failed). Returns nothing. Served by the primary key.
UPDATE job_runs SET finished_at = now(), outcome = $2, result = $3 WHERE run_id = $1
