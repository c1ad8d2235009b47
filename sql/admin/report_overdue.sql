-- The overdue report (docs/reports.md) from the reports job's summary (report_assignments): open
-- assignments past their deadline when counted, by the rider's market and city (city NULL
-- for riders without one), the 20 with the most first — market, city, overdue — for the
-- riders matching $1 markets and $2 cities (NULL: any). Run planned per call. A scan of the
-- summary.
SELECT market, city, sum(overdue) AS overdue
FROM report_assignments
WHERE overdue > 0
  AND ($1::text[] IS NULL OR market = ANY ($1))
  AND ($2::text[] IS NULL OR city = ANY ($2))
GROUP BY market, city
ORDER BY overdue DESC, market, city NULLS LAST
LIMIT 20
