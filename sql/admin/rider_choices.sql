-- The values riders have for the city and vehicle type choices of the riders list, the assign
-- page and the reports, of the markets $1 (NULL: every market): kind ('city' or
-- 'vehicle_type') and value, each once in any case (a city's spelling is one a rider has;
-- the filters compare in lower case), sorted. Two skip scans: each step takes the next
-- (market, value) from riders_market_city_folded or riders_market_vehicle_type, so a few
-- hundred index probes rather than a scan of every rider.
WITH RECURSIVE cities AS (
    (SELECT market, lower(city) AS folded, city
     FROM riders
     WHERE city IS NOT NULL AND ($1::text[] IS NULL OR market = ANY ($1))
     ORDER BY market, lower(city)
     LIMIT 1)
    UNION ALL
    SELECT n.market, n.folded, n.city
    FROM cities c
    CROSS JOIN LATERAL (
        SELECT market, lower(city) AS folded, city
        FROM riders
        WHERE city IS NOT NULL AND ($1::text[] IS NULL OR market = ANY ($1))
          AND (market, lower(city)) > (c.market, c.folded)
        ORDER BY market, lower(city)
        LIMIT 1
    ) n
),
vehicle_types AS (
    (SELECT market, vehicle_type
     FROM riders
     WHERE vehicle_type IS NOT NULL AND ($1::text[] IS NULL OR market = ANY ($1))
     ORDER BY market, vehicle_type
     LIMIT 1)
    UNION ALL
    SELECT n.market, n.vehicle_type
    FROM vehicle_types v
    CROSS JOIN LATERAL (
        SELECT market, vehicle_type
        FROM riders
        WHERE vehicle_type IS NOT NULL AND ($1::text[] IS NULL OR market = ANY ($1))
          AND (market, vehicle_type) > (v.market, v.vehicle_type)
        ORDER BY market, vehicle_type
        LIMIT 1
    ) n
)
SELECT kind, value
FROM ((SELECT DISTINCT ON (folded) 'city' AS kind, folded, city AS value FROM cities
       ORDER BY folded, city)
      UNION ALL
      SELECT DISTINCT 'vehicle_type', vehicle_type, vehicle_type FROM vehicle_types) choices
ORDER BY kind, folded
