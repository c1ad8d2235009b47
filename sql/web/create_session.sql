-- Stores a new session: $1 id hash, $2 kind, $3 admin_id, $4 rider_id, $5 csrf secret,
-- $6 language, expiring after interval $7. Returns nothing. Served by the primary key.
INSERT INTO web_sessions (id_hash, kind, admin_id, rider_id, csrf_secret, language, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, now() + $7::interval)
