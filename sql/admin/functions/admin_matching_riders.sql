-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The riders list's filters (docs/admin-panel.md, "One riders filter"), shared by its page,
-- its count and its exports: the riders (whole rows) that match the search text and every
-- filter given. Its parameters come from app.admin.search.matching_riders_parameters, the
-- one reading of the list's query: q matches a rider when q_id equals the rider ID, or the
-- name is ILIKE q_name (NULL under 3 characters), or the reversed phone is LIKE q_phone
-- (NULL unless q is 4 or more digits: the phone ends with them); the filters are
-- training_rider_matches's (f_markets holds the admin's market limit too); f_overdue true
-- keeps the riders with an open assignment past its deadline.
-- Two disjoint branches: every rider (no q) or those whose name matches, and the few found
-- by ID or phone whose name does not. A single SELECT, so PostgreSQL inlines it: with the
-- caller's ORDER BY rider_id LIMIT n the branches become a merge of the primary key's walk,
-- which stops after a page (a name as common as "Ahmed" matches 1 rider in 20: a trigram
-- bitmap would read them all), and the ID or phone look-ups (riders' primary key,
-- riders_phone_suffix). Planned per call, what is not given drops out of the plan.
-- The signature changed: the old ones are dropped, so no call can reach them.
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text,
                                              boolean);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text,
                                              boolean, text[]);
CREATE OR REPLACE FUNCTION admin_matching_riders(
    q_id text, q_name text, q_phone text, f_markets text[], f_statuses text[],
    f_vehicle_types text[], f_cities text[], f_nationalities text[], f_overdue boolean
) RETURNS SETOF riders
LANGUAGE sql STABLE AS $$
    SELECT r.*
    FROM riders r
    WHERE (q_id IS NULL OR r.name ILIKE q_name)
      AND training_rider_matches(r, f_markets, f_statuses, f_vehicle_types, f_cities,
                                 f_nationalities)
      AND (f_overdue IS NOT TRUE
           OR r.rider_id IN (SELECT a.rider_id FROM assignments a
                             WHERE a.completed_at IS NULL AND a.deadline < now()))
    UNION ALL
    SELECT r.*
    FROM riders r
    WHERE (r.rider_id = q_id OR reverse(r.phone) LIKE q_phone)
      AND (q_name IS NULL OR r.name NOT ILIKE q_name)
      AND training_rider_matches(r, f_markets, f_statuses, f_vehicle_types, f_cities,
                                 f_nationalities)
      AND (f_overdue IS NOT TRUE
           OR r.rider_id IN (SELECT a.rider_id FROM assignments a
                             WHERE a.completed_at IS NULL AND a.deadline < now()))
$$;
