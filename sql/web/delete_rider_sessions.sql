-- Ends every session of rider $1. Returns nothing. Served by web_sessions_rider.
DELETE FROM web_sessions WHERE rider_id = $1
