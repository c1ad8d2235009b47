-- Keeps the one-time notice $2 for the admin session with id hash $1; returns its notice_id,
-- or no row when that session has ended (an admin who disabled themselves). Served by the
-- sessions' primary key.
INSERT INTO admin_notices (session_hash, message)
SELECT id_hash, $2 FROM web_sessions WHERE id_hash = $1
RETURNING notice_id
