-- How many AI jobs there are of each kind and status (rows kind, status, jobs), for the ai_jobs
-- gauge at each metrics scrape. A sequential scan: jobs are started by hand, a few thousand a
-- year; no index would be cheaper than reading them.
SELECT kind, status, count(*)::float8 AS jobs
FROM ai_jobs
GROUP BY kind, status
