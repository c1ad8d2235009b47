-- The weeks report (DESIGN §14): the last 12 ISO weeks (UTC) to this one, oldest first —
-- week ('2026-W47'), completions (course records passed that week), assignments (created
-- that week) — of the riders matching $1 markets and $2 cities (NULL: any). Run planned per
-- call. Completions come from a range of course_results_feed; assignments from one
-- sequential scan (no index on assigned_at: each index slows the bulk assignment, and a
-- scan of 1.5 M rows is well inside the page's budget).
WITH weeks AS (
    SELECT week
    FROM generate_series(date_trunc('week', now(), 'UTC') - interval '11 weeks',
                         date_trunc('week', now(), 'UTC'), interval '1 week') AS w (week)
), matching AS (
    SELECT r.rider_id FROM riders r
    WHERE ($1::text[] IS NULL OR r.market = ANY ($1))
      AND ($2::text[] IS NULL OR r.city = ANY ($2))
)
SELECT to_char(w.week AT TIME ZONE 'UTC', 'IYYY-"W"IW') AS week,
       coalesce(c.completions, 0) AS completions, coalesce(a.assignments, 0) AS assignments
FROM weeks w
LEFT JOIN (SELECT date_trunc('week', cr.completed_at, 'UTC') AS week, count(*) AS completions
           FROM course_results cr
           WHERE cr.completed_at >= (SELECT min(week) FROM weeks)
             AND ($1::text[] IS NULL AND $2::text[] IS NULL
                  OR cr.rider_id IN (SELECT rider_id FROM matching))
           GROUP BY 1) c USING (week)
LEFT JOIN (SELECT date_trunc('week', a.assigned_at, 'UTC') AS week, count(*) AS assignments
           FROM assignments a
           WHERE a.assigned_at >= (SELECT min(week) FROM weeks)
             AND ($1::text[] IS NULL AND $2::text[] IS NULL
                  OR a.rider_id IN (SELECT rider_id FROM matching))
           GROUP BY 1) a USING (week)
ORDER BY w.week
