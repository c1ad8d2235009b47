-- Loads the live session with id hash $1 of kind $2 and records the visit; when $3 (sliding)
-- its expiry moves to now + $4, but never past its start + $5 (the absolute lifetime). A
-- session of a disabled admin is not live. Returns the session row, or no row. Served by the
-- primary key (and admins' primary key).
UPDATE web_sessions s
SET last_seen_at = now(),
    expires_at = CASE
        WHEN $3 THEN least(now() + $4::interval, s.created_at + $5::interval)
        ELSE s.expires_at
    END
WHERE s.id_hash = $1
  AND s.kind = $2
  AND s.expires_at > now()
  AND s.created_at > now() - $5::interval
  AND NOT EXISTS (SELECT FROM admins a WHERE a.admin_id = s.admin_id AND a.disabled_at IS NOT NULL)
RETURNING s.kind, s.admin_id, s.rider_id, s.csrf_secret, s.language, s.expires_at
