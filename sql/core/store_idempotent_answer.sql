-- Stores the answer ($3 status, $4 body) of the request that claimed Idempotency-Key $2 of
-- scope $1. Returns nothing. Served by the key.
UPDATE idempotency_keys
SET status = $3, answer = $4
WHERE scope = $1 AND key = $2
