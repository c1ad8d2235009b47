-- Revokes a rider's one-tap links issued until now and ends their sessions ($1: rider id).
-- Returns the rider id, or no row for an unknown rider. Served by riders' primary key and
-- web_sessions_rider.
WITH ended AS (DELETE FROM web_sessions WHERE rider_id = $1)
UPDATE riders SET links_revoked_at = now() WHERE rider_id = $1 RETURNING rider_id
