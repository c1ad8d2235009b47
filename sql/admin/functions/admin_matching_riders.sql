-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The riders list's filters (docs/admin-riders.md, "One riders filter"), shared by its page,
-- its count and its exports: the riders (whole rows) that match the search text and every
-- filter given. Its parameters come from app.admin.search.matching_riders_parameters, the
-- one reading of the list's query: q matches a rider when q_id equals the rider ID, or the
-- name is ILIKE q_name (NULL under 3 characters), or the reversed phone is LIKE q_phone
-- (NULL unless q is 4 or more digits: the phone ends with them); the filters are
-- training_rider_matches's (f_markets holds the admin's market limit too); f_path keeps the
-- riders with an assignment of that path in state f_path_state (NULL or 'assigned': any,
-- 'completed', 'overdue': open past its deadline); f_overdue true keeps the riders with an
-- open assignment of any path past its deadline.
-- Two disjoint parts (admin_matching_riders_part): every rider (no q) or those whose name
-- matches, and the few found by ID or phone whose name does not. The list's page orders and
-- cuts the first part itself, so that PostgreSQL walks riders' primary key and stops after a
-- page (a name as common as "Ahmed" matches 1 rider in 20: a trigram bitmap would read them
-- all); the count and the exports take both parts through this function. Single SELECTs, so
-- PostgreSQL inlines them into the calling statement; planned per call, what is not given
-- drops out of the plan.
-- The signature changed: the old ones are dropped, so no call can reach them.
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text,
                                              boolean);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text,
                                              boolean, text[]);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text[], text[], text[], text[],
                                              text[], boolean);
DROP FUNCTION IF EXISTS admin_matching_riders_part(boolean, text, text, text, text[], text[],
                                                   text[], text[], text[], boolean);

CREATE OR REPLACE FUNCTION admin_matching_riders_part(
    found_by_id_or_phone boolean, q_id text, q_name text, q_phone text, f_markets text[],
    f_statuses text[], f_vehicle_types text[], f_cities text[], f_nationalities text[],
    f_path uuid, f_path_state text, f_overdue boolean
) RETURNS SETOF riders
LANGUAGE sql STABLE AS $$
    SELECT r.*
    FROM riders r
    WHERE CASE WHEN found_by_id_or_phone
               THEN (r.rider_id = q_id OR reverse(r.phone) LIKE q_phone)
                    AND (q_name IS NULL OR r.name NOT ILIKE q_name)
               ELSE q_id IS NULL OR r.name ILIKE q_name END
      AND training_rider_matches(r, f_markets, f_statuses, f_vehicle_types, f_cities,
                                 f_nationalities)
      AND (f_path IS NULL
           OR r.rider_id IN (SELECT a.rider_id FROM assignments a
                             WHERE a.path_id = f_path
                               AND CASE f_path_state
                                   WHEN 'completed' THEN a.completed_at IS NOT NULL
                                   WHEN 'overdue' THEN a.completed_at IS NULL
                                                       AND a.deadline < now()
                                   ELSE true END))
      AND (f_overdue IS NOT TRUE
           OR r.rider_id IN (SELECT a.rider_id FROM assignments a
                             WHERE a.completed_at IS NULL AND a.deadline < now()))
$$;

CREATE OR REPLACE FUNCTION admin_matching_riders(
    q_id text, q_name text, q_phone text, f_markets text[], f_statuses text[],
    f_vehicle_types text[], f_cities text[], f_nationalities text[], f_path uuid,
    f_path_state text, f_overdue boolean
) RETURNS SETOF riders
LANGUAGE sql STABLE AS $$
    SELECT * FROM admin_matching_riders_part(false, q_id, q_name, q_phone, f_markets,
                                             f_statuses, f_vehicle_types, f_cities,
                                             f_nationalities, f_path, f_path_state,
                                             f_overdue)
    UNION ALL
    SELECT * FROM admin_matching_riders_part(true, q_id, q_name, q_phone, f_markets,
                                             f_statuses, f_vehicle_types, f_cities,
                                             f_nationalities, f_path, f_path_state,
                                             f_overdue)
$$;
