-- The riders filters compare city case-insensitively, and the riders list and the assign page
-- offer the cities and vehicle types riders have, of the admin's markets
-- (docs/admin-panel.md, "Filters from the stored values"): these indexes serve the city
-- filter and the skip scans that list each market's values in a few index probes.
-- depends: 0042.rider-pin-resets

CREATE INDEX riders_market_city_folded ON riders (market, lower(city)) WHERE city IS NOT NULL;
CREATE INDEX riders_market_vehicle_type ON riders (market, vehicle_type)
    WHERE vehicle_type IS NOT NULL;
