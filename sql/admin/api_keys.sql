-- The API keys page: every key of the database, live ones first, then newest first. Returns
-- id, name, scopes, key_start, created_at, expires_at, last_used_at, revoked_at. Keys are
-- few and scanned.
SELECT id, name, scopes, key_start, created_at, expires_at, last_used_at, revoked_at
FROM api_keys
ORDER BY revoked_at IS NOT NULL, created_at DESC, id DESC
