-- The reports job: replaces report_completions with the passed course records now, by the
-- rider's market and city and ISO week (UTC). One scan of course_results hashed against
-- riders. Returns nothing.
WITH old AS (DELETE FROM report_completions)
INSERT INTO report_completions (market, city, week, completions)
SELECT r.market, r.city, date_trunc('week', cr.completed_at AT TIME ZONE 'UTC')::date, count(*)
FROM course_results cr
JOIN riders r USING (rider_id)
WHERE cr.completed_at IS NOT NULL
GROUP BY 1, 2, 3
