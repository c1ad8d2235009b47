-- Loads the live session with id hash $1 of kind $2; when $3 (sliding) its expiry moves to
-- now + $4 but never past its start + $5 (the absolute lifetime), written only when that moves
-- it by more than a minute, later or (once the absolute lifetime caps it) earlier: a fixed
-- session (a rider's) is never written, a sliding one (an admin's) at most once a minute, so a
-- page costs no write (and no WAL flush) for the session. last_seen_at is when the expiry last
-- moved. A session of a disabled admin, or one past its absolute lifetime, is not live.
-- Returns the session row, or no row. Served by the primary key (and admins' primary key).
WITH live AS (
    SELECT s.id_hash, s.kind, s.admin_id, s.rider_id, s.csrf_secret, s.language, s.expires_at,
           least(now() + $4::interval, s.created_at + $5::interval) AS slid_to
    FROM web_sessions s
    WHERE s.id_hash = $1
      AND s.kind = $2
      AND s.expires_at > now()
      AND s.created_at > now() - $5::interval
      AND NOT EXISTS (
          SELECT FROM admins a WHERE a.admin_id = s.admin_id AND a.disabled_at IS NOT NULL
      )
), slid AS (
    UPDATE web_sessions s
    SET last_seen_at = now(), expires_at = live.slid_to
    FROM live
    WHERE $3 AND s.id_hash = live.id_hash
      AND live.expires_at NOT BETWEEN live.slid_to - interval '1 minute'
                              AND live.slid_to + interval '1 minute'
    RETURNING s.expires_at
)
SELECT kind, admin_id, rider_id, csrf_secret, language,
       coalesce((SELECT expires_at FROM slid), expires_at) AS expires_at
FROM live
