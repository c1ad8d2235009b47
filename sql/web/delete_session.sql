-- Ends the session with id hash $1. Returns nothing. Served by the primary key.
DELETE FROM web_sessions WHERE id_hash = $1
