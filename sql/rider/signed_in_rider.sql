-- The rider $1 of a session, or no row when the rider is inactive (their sessions are ended
-- when they become inactive; this holds even for a change made behind the service's back).
-- Served by riders' primary key.
SELECT rider_id, name, language, status
FROM riders
WHERE rider_id = $1 AND status <> 'inactive'
