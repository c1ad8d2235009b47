-- The paths report (DESIGN §14): one row per path with assignments matching the filters —
-- path_id, path (name), assigned (open or completed), completed, completion_rate (percent,
-- one decimal), overdue (open past the deadline now), median_days (completedAt − assignedAt
-- in days, one decimal; NULL when none completed). Filters, NULL for any: $1 markets and $2
-- cities of the rider, $3 / $4 assigned at or after / before. Run planned per call, so the
-- filters not given drop out. One parallel sequential scan of assignments (no index serves a
-- count of every row), joined to a hash of the riders filtered when a rider filter is given;
-- the median sorts each path's completed rows in memory.
SELECT p.path_id, p.name AS path, s.assigned, s.completed,
       round(100.0 * s.completed / s.assigned, 1) AS completion_rate, s.overdue,
       round(s.median_days::numeric, 1) AS median_days
FROM (SELECT a.path_id, count(*) AS assigned, count(a.completed_at) AS completed,
             count(*) FILTER (WHERE a.completed_at IS NULL AND a.deadline < now()) AS overdue,
             percentile_cont(0.5) WITHIN GROUP (
                 ORDER BY extract(epoch FROM a.completed_at - a.assigned_at) / 86400
             ) FILTER (WHERE a.completed_at IS NOT NULL) AS median_days
      FROM assignments a
      WHERE ($1::text[] IS NULL AND $2::text[] IS NULL
             OR a.rider_id IN (SELECT r.rider_id FROM riders r
                               WHERE ($1::text[] IS NULL OR r.market = ANY ($1))
                                 AND ($2::text[] IS NULL OR r.city = ANY ($2))))
        AND ($3::timestamptz IS NULL OR a.assigned_at >= $3)
        AND ($4::timestamptz IS NULL OR a.assigned_at < $4)
      GROUP BY a.path_id) s
JOIN paths p USING (path_id)
ORDER BY lower(p.name), p.path_id
