-- The rider $1 as sign-in and one-tap links see them: name, language, status, PIN hash and
-- when their links were revoked; no row for an unknown rider. Served by riders' primary key.
SELECT rider_id, name, language, status, pin_hash, links_revoked_at
FROM riders
WHERE rider_id = $1
