-- The overdue report (DESIGN §14): open assignments past their deadline now, by the rider's
-- market and city (city NULL for riders without one), the 20 with the most first — market,
-- city, overdue — for the riders matching $1 markets and $2 cities (NULL: any). Run planned
-- per call. One sequential scan of assignments, hashed against riders.
SELECT r.market, r.city, count(*) AS overdue
FROM assignments a
JOIN riders r USING (rider_id)
WHERE a.completed_at IS NULL AND a.deadline < now()
  AND ($1::text[] IS NULL OR r.market = ANY ($1))
  AND ($2::text[] IS NULL OR r.city = ANY ($2))
GROUP BY r.market, r.city
ORDER BY overdue DESC, r.market, r.city NULLS LAST
LIMIT 20
