-- The panel's paths list: every path with its course count and its open and completed
-- assignments, by name. Paths and path_courses are small; assignments are read in one
-- (parallel) sequential scan, counted in a hash by path: no index leads with path_id (each
-- index slows the bulk assignment inserts, see migration 0004). Distinct riders are counted
-- only on a path's own page: here they sorted every assignment (740 ms at 1.5 million).
SELECT p.path_id, p.name, p.active, p.rule, p.days_to_complete,
       (SELECT count(*) FROM path_courses pc WHERE pc.path_id = p.path_id) AS courses,
       coalesce(a.open, 0) AS open, coalesce(a.completed, 0) AS completed
FROM paths p
LEFT JOIN (SELECT path_id, count(*) FILTER (WHERE completed_at IS NULL) AS open,
                  count(*) FILTER (WHERE completed_at IS NOT NULL) AS completed
           FROM assignments GROUP BY path_id) a USING (path_id)
ORDER BY lower(p.name), p.path_id
