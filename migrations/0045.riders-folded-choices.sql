-- The riders filters compare city case-insensitively, and the riders list and the assign page
-- offer the cities and vehicle types riders have, of the admin's markets
-- (docs/admin-riders.md, "Filters from the stored values"): these indexes serve the city
-- filter and the skip scans that list each market's values in a few index probes. The
-- planner reads no statistics from a partial index's expression: the statistics object gives
-- it lower(city)'s, so that a city few riders have is looked up in the index rather than
-- checked on a walk of every rider.
-- depends: 0044.rules-written-once

CREATE INDEX riders_market_city_folded ON riders (market, lower(city)) WHERE city IS NOT NULL;
CREATE INDEX riders_market_vehicle_type ON riders (market, vehicle_type)
    WHERE vehicle_type IS NOT NULL;
CREATE STATISTICS riders_city_folded ON (lower(city)) FROM riders;
