-- Revokes API key $1 (name): its scopes, or no row when no unrevoked key has that name.
-- Served by the unique index on name.
UPDATE api_keys
SET revoked_at = now()
WHERE name = $1 AND revoked_at IS NULL
RETURNING scopes
