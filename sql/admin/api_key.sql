-- API key $1 (id): name, scopes, key_start, expires_at, revoked_at; no row when there is
-- none. Served by the primary key.
SELECT id, name, scopes, key_start, expires_at, revoked_at
FROM api_keys
WHERE id = $1
