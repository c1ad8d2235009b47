-- The rider signing in (or asking for a new PIN) as $1: the rider with exactly that ID, else
-- the one rider whose ID matches it case-insensitively (no row when several do); their
-- status, language, PIN hash and the hash of a new PIN sent by "Forgot your PIN?" while it is
-- valid (unexpired, and the PIN it replaces still the rider's). Served by
-- riders_rider_id_folded and pin_resets' primary key.
WITH folded AS (
    SELECT rider_id, language, status, pin_hash
    FROM riders
    WHERE lower(rider_id) = lower($1)
)
SELECT f.rider_id, f.language, f.status, f.pin_hash, p.pin_hash AS new_pin_hash
FROM folded f
LEFT JOIN pin_resets p
       ON p.rider_id = f.rider_id AND p.replaces = f.pin_hash AND p.expires_at > now()
WHERE f.rider_id = $1 OR (SELECT count(*) FROM folded) = 1
ORDER BY f.rider_id = $1 DESC
LIMIT 1
