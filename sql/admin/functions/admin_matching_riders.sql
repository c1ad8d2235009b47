-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The riders list's filters (docs/admin-panel.md), shared by its page and its exports: the IDs of the
-- riders that match every filter given (NULL: any). The search text q matches a rider when
-- q_id equals the rider ID, or q_name (NULL under 3 characters) is part of the name in any
-- case, or q_digits (NULL unless q is 4 or more digits) ends the phone. A single SELECT, so
-- PostgreSQL inlines it into the calling statement; a seq scan of riders (the search text is
-- matched anywhere in the name, which no index serves). f_overdue true keeps the riders with
-- an open assignment past its deadline (a hashed subplan over one scan of assignments).
-- f_markets: the admin's markets (empty: every market; docs/security.md, admin roles and
-- markets), never NULL.
-- The signature grew parameters: the old ones are dropped, so no call can reach them.
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text);
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text, text, text, text, text,
                                              boolean);
CREATE OR REPLACE FUNCTION admin_matching_riders(
    q_id text, q_name text, q_digits text, f_market text, f_status text,
    f_vehicle_type text, f_city text, f_nationality text, f_overdue boolean, f_markets text[]
) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT r.rider_id
    FROM riders r
    WHERE (q_id IS NULL
           OR r.rider_id = q_id
           OR strpos(lower(r.name), lower(q_name)) > 0
           OR right(r.phone, length(q_digits)) = q_digits)
      AND (f_market IS NULL OR r.market = f_market)
      AND (f_status IS NULL OR r.status = f_status)
      AND (f_vehicle_type IS NULL OR r.vehicle_type = f_vehicle_type)
      AND (f_city IS NULL OR r.city = f_city)
      AND (f_nationality IS NULL OR r.nationality = f_nationality)
      AND (cardinality(f_markets) = 0 OR r.market = ANY (f_markets))
      AND (f_overdue IS NOT TRUE
           OR r.rider_id IN (SELECT a.rider_id FROM assignments a
                             WHERE a.completed_at IS NULL AND a.deadline < now()))
$$;
