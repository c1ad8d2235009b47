-- Rider $1's flags, newest first: type, note, source ('api' or 'admin'), created_at.
-- Served by flags_rider.
SELECT type, note, source, created_at
FROM flags WHERE rider_id = $1
ORDER BY created_at DESC
