-- The riders filter's functions take riders' row type (sql/training/functions and
-- sql/admin/functions): dropped here, so that an older schema's rollbacks may drop riders;
-- every migrate applies them again.
-- Whatever their signature today (the filter has grown parameters since this migration).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT oid::regprocedure FROM pg_proc
             WHERE proname IN ('admin_matching_riders', 'admin_matching_riders_part',
                               'training_rider_matches')
    LOOP
        EXECUTE 'DROP FUNCTION ' || f;
    END LOOP;
END
$$;
DROP STATISTICS riders_city_folded;
DROP INDEX riders_market_vehicle_type;
DROP INDEX riders_market_city_folded;
