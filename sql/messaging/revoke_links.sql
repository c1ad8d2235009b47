-- Revokes a rider's one-tap links and sessions issued until now ($1: rider id). Returns the
-- rider id, or no row for an unknown rider. Served by riders' primary key.
UPDATE riders SET links_revoked_at = now() WHERE rider_id = $1 RETURNING rider_id
