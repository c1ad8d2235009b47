-- Adds API key $1 (name) with scopes $2, SHA-256 $3, first 8 characters $4, expiring after
-- $5 days (null: never). Returns its id, or no row when the name is taken. Served by the
-- unique index on name.
INSERT INTO api_keys (name, scopes, key_hash, key_start, expires_at)
VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))
ON CONFLICT (name) DO NOTHING
RETURNING id
