-- The panel's paths list: every path with its course count and how many riders it was
-- assigned to (riders, and open assignments now), by name. Paths and path_courses are small;
-- assignments are scanned once (no index leads with path_id: each index would slow the bulk
-- assignment inserts, see migration 0004).
SELECT p.path_id, p.name, p.active, p.rule, p.days_to_complete,
       (SELECT count(*) FROM path_courses pc WHERE pc.path_id = p.path_id) AS courses,
       coalesce(a.riders, 0) AS riders, coalesce(a.open, 0) AS open
FROM paths p
LEFT JOIN (SELECT path_id, count(DISTINCT rider_id) AS riders,
                  count(*) FILTER (WHERE completed_at IS NULL) AS open
           FROM assignments GROUP BY path_id) a USING (path_id)
ORDER BY lower(p.name), p.path_id
