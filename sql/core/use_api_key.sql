-- The unrevoked API key whose SHA-256 is $1: id, name, scopes, expires_at (an expired key is
-- returned too: the caller checks the time); no row for an unknown or revoked key. It also
-- stamps the key's last use when that is more than a minute old, whatever the instance, so
-- "last use" costs no statement of its own: this runs only when a process has not seen the
-- key for 5 seconds. Committed without waiting for the disk (a lost stamp is harmless).
-- Served by the unique index on key_hash.
WITH found AS (
    SELECT id, name, scopes, expires_at
    FROM api_keys
    WHERE key_hash = $1 AND revoked_at IS NULL
), stamped AS (
    UPDATE api_keys AS k
    SET last_used_at = now()
    FROM found, (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush
    WHERE k.id = found.id
      AND (found.expires_at IS NULL OR found.expires_at > now())
      AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute')
)
SELECT id, name, scopes, expires_at FROM found
