-- Takes the notice $1 of the admin session with id hash $2: returns its message and deletes
-- it, so it is shown once; no row for another session's notice or one shown already. Served
-- by the primary key.
DELETE FROM admin_notices WHERE notice_id = $1 AND session_hash = $2 RETURNING message
