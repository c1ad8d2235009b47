-- Ends every session of admin $1. Returns nothing. Served by web_sessions_admin.
DELETE FROM web_sessions WHERE admin_id = $1
