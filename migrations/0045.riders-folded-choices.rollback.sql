-- The riders filter's functions take riders' row type (sql/training/functions and
-- sql/admin/functions): dropped here, the first rollback to run, so that an older schema's
-- rollbacks may drop riders; every migrate applies them again.
DROP FUNCTION IF EXISTS admin_matching_riders(text, text, text, text[], text[], text[], text[],
                                              text[], boolean);
DROP FUNCTION IF EXISTS admin_matching_riders_part(boolean, text, text, text, text[], text[],
                                                   text[], text[], text[], boolean);
DROP FUNCTION IF EXISTS training_rider_matches(riders, text[], text[], text[], text[], text[]);
DROP STATISTICS riders_city_folded;
DROP INDEX riders_market_vehicle_type;
DROP INDEX riders_market_city_folded;
