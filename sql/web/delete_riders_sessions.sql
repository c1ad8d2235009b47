-- Ends every session of the riders $1 (an array). Returns nothing. Served by
-- web_sessions_rider.
DELETE FROM web_sessions WHERE rider_id = ANY ($1::text[])
