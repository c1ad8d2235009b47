-- Takes the pad of reveal $1 of the admin session with id hash $2, once: its kind, subject
-- and pad (null when taken already or expired), and the pad is gone for good; no row for an
-- unknown reveal or another session's. Served by the primary key.
UPDATE admin_reveals AS r
SET pad = NULL
FROM (
    SELECT reveal_id, pad, expires_at
    FROM admin_reveals
    WHERE reveal_id = $1 AND session_hash = $2
    FOR UPDATE
) AS before
WHERE r.reveal_id = before.reveal_id
RETURNING r.kind, r.subject, CASE WHEN before.expires_at > now() THEN before.pad END AS pad
