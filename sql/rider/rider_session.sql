-- The live rider session with id hash $1 (live: before its expiry and within $2, the absolute
-- lifetime, of sign-in, as web/touch_session.sql has it) and its rider, in one round trip for
-- every signed-in page: a rider session is fixed, so a visit writes nothing, and an inactive
-- rider has no live session (their sessions are ended when they become inactive; this holds
-- even for a change made behind the service's back). Returns the session's fields and the
-- rider's, or no row. Served by the primary keys of web_sessions and riders.
SELECT s.csrf_secret, s.language AS session_language, s.expires_at,
       r.rider_id, r.name, r.language, r.status
FROM web_sessions s
JOIN riders r ON r.rider_id = s.rider_id
WHERE s.id_hash = $1
  AND s.kind = 'rider'
  AND s.expires_at > now()
  AND s.created_at > now() - $2::interval
  AND r.status <> 'inactive'
