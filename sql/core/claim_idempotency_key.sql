-- Claims Idempotency-Key $2 in scope $1 for a request whose body hashes to $3: inserted, or
-- taken over when the stored key has expired (24 hours) or was claimed by a request that has
-- not answered for 10 minutes (its process died). Returns one row (true) when this request
-- claimed the key and must run, no row when another holds it. Run on its own, committed
-- before the work: of two requests at once, exactly one gets the row. Committed without
-- waiting for the disk (a flush costs milliseconds on a busy one): the work's own commit,
-- which does wait, flushes the claim with it, and a claim lost in a crash belongs to work
-- that was lost too. Served by the key.
INSERT INTO idempotency_keys AS k (scope, key, body_hash)
SELECT $1, $2, $3
FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush
ON CONFLICT (scope, key) DO UPDATE
SET body_hash = excluded.body_hash, claimed_at = now(),
    expires_at = now() + interval '24 hours', status = NULL, answer = NULL
WHERE k.expires_at <= now()
   OR (k.status IS NULL AND k.claimed_at <= now() - interval '10 minutes')
RETURNING true AS claimed
