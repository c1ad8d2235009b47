-- The weeks report (docs/reports.md) from the reports job's summaries: the last 12 ISO weeks
-- (UTC) to this one, oldest first — week ('2026-W47'), completions (course records passed
-- that week), assignments (made that week) — of the riders matching $1 markets and $2 cities
-- (NULL: any). Run planned per call. Scans of report_completions and report_assignments.
WITH weeks AS (
    SELECT week::date AS week
    FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '11 weeks',
                         date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week')
         AS w (week)
)
SELECT to_char(w.week, 'IYYY-"W"IW') AS week,
       coalesce(c.completions, 0) AS completions, coalesce(a.assignments, 0) AS assignments
FROM weeks w
LEFT JOIN (SELECT week, sum(completions) AS completions
           FROM report_completions
           WHERE week >= (SELECT min(week) FROM weeks)
             AND ($1::text[] IS NULL OR market = ANY ($1))
             AND ($2::text[] IS NULL OR city = ANY ($2))
           GROUP BY week) c USING (week)
LEFT JOIN (SELECT date_trunc('week', assigned_on)::date AS week, sum(assigned) AS assignments
           FROM report_assignments
           WHERE assigned_on >= (SELECT min(week) FROM weeks)
             AND ($1::text[] IS NULL OR market = ANY ($1))
             AND ($2::text[] IS NULL OR city = ANY ($2))
           GROUP BY 1) a USING (week)
ORDER BY w.week
