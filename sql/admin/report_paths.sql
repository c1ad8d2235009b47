-- The paths report (docs/reports.md) from the reports job's summary (report_assignments): one row
-- per path with assignments matching the filters — path_id, path (name), assigned (open or
-- completed), completed, completion_rate (percent, one decimal), overdue (open past the
-- deadline when counted), median_days (days to complete, from durations in tenths of a day;
-- NULL when none completed). Filters, NULL for any: $1 markets and $2 cities of the rider,
-- $3 / $4 first / last UTC day assigned. Run planned per call. A scan of the summary (a few
-- thousand rows); the median is read off each path's histogram of tenths (the middle one, or
-- the mean of the two middle ones, as percentile_cont).
WITH matching AS (
    SELECT path_id, tenths, assigned, completed, overdue
    FROM report_assignments
    WHERE ($1::text[] IS NULL OR market = ANY ($1))
      AND ($2::text[] IS NULL OR city = ANY ($2))
      AND ($3::date IS NULL OR assigned_on >= $3)
      AND ($4::date IS NULL OR assigned_on <= $4)
), histogram AS (
    SELECT path_id, tenths,
           sum(sum(completed)) OVER (PARTITION BY path_id ORDER BY tenths) AS below,
           sum(sum(completed)) OVER (PARTITION BY path_id) AS total
    FROM matching
    WHERE tenths IS NOT NULL
    GROUP BY path_id, tenths
), medians AS (
    SELECT path_id,
           (min(tenths) FILTER (WHERE below > floor((total - 1) / 2))
            + min(tenths) FILTER (WHERE below > floor(total / 2))) / 20.0 AS median_days
    FROM histogram
    GROUP BY path_id
)
SELECT p.path_id, p.name AS path, s.assigned, s.completed,
       round(100.0 * s.completed / s.assigned, 1) AS completion_rate, s.overdue,
       round(m.median_days, 1) AS median_days
FROM (SELECT path_id, sum(assigned) AS assigned, sum(completed) AS completed,
             sum(overdue) AS overdue
      FROM matching
      GROUP BY path_id) s
JOIN paths p USING (path_id)
LEFT JOIN medians m USING (path_id)
ORDER BY lower(p.name), p.path_id
