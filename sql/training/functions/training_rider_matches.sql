-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- Whether rider r matches the riders filters (docs/admin-riders.md, "One riders filter"): the
-- one rule of the riders list, its exports and the assign forms of the panel and the API.
-- Each filter is a list of values, NULL when not given (any rider); an empty list matches no
-- one (an admin's market limit that leaves no market). Markets, statuses and nationalities
-- are compared as stored; vehicle types (stored in lower case) and cities (stored as sent)
-- in lower case: the caller passes f_vehicle_types and f_cities in lower case
-- (app.admin.search.folded), so that "hawalli" finds the riders of "Hawalli".
-- A single expression without subqueries, so PostgreSQL inlines it into the calling
-- statement: a plan per call then drops the filters not given, and riders_market_city_folded
-- serves lower(city).
CREATE OR REPLACE FUNCTION training_rider_matches(
    r riders, f_markets text[], f_statuses text[], f_vehicle_types text[], f_cities text[],
    f_nationalities text[]
) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT (f_markets IS NULL OR r.market = ANY (f_markets))
       AND (f_statuses IS NULL OR r.status = ANY (f_statuses))
       AND (f_vehicle_types IS NULL OR r.vehicle_type = ANY (f_vehicle_types))
       AND (f_cities IS NULL OR lower(r.city) = ANY (f_cities))
       AND (f_nationalities IS NULL OR r.nationality = ANY (f_nationalities))
$$;
