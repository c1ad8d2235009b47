-- Remembers language $2 for the session with id hash $1. Returns nothing. Served by the
-- primary key.
UPDATE web_sessions SET language = $2 WHERE id_hash = $1
