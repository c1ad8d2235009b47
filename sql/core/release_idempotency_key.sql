-- Releases Idempotency-Key $2 of scope $1 whose request failed (5xx, or no answer): the
-- client may retry with the same key. Returns nothing. Served by the key.
DELETE FROM idempotency_keys
WHERE scope = $1 AND key = $2 AND status IS NULL
