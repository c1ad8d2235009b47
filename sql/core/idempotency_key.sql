-- The stored Idempotency-Key $2 of scope $1: its body hash, and the answer (status NULL while
-- the first request runs). No row when it is gone (its request failed and released it).
-- Served by the key.
SELECT body_hash, status, answer
FROM idempotency_keys
WHERE scope = $1 AND key = $2 AND expires_at > now()
