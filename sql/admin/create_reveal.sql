-- Keeps the pad $4 of a secret of kind $2 about $3 for the admin session with id hash $1,
-- takeable for $5 seconds; returns its reveal_id. Served by nothing (an insert).
INSERT INTO admin_reveals (session_hash, kind, subject, pad, expires_at)
VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
RETURNING reveal_id
