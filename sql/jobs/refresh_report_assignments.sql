-- The reports job: replaces report_assignments with the counts of every assignment now
-- (migration 0027; days to complete rounded to tenths, half away from zero). One scan of
-- assignments hashed against riders. Returns nothing.
WITH old AS (DELETE FROM report_assignments)
INSERT INTO report_assignments (path_id, market, city, assigned_on, tenths, assigned, completed,
                                overdue)
SELECT a.path_id, r.market, r.city, (a.assigned_at AT TIME ZONE 'UTC')::date,
       round(extract(epoch FROM a.completed_at - a.assigned_at) / 8640)::integer,
       count(*), count(a.completed_at),
       count(*) FILTER (WHERE a.completed_at IS NULL AND a.deadline < now())
FROM assignments a
JOIN riders r USING (rider_id)
GROUP BY 1, 2, 3, 4, 5
