-- Stores the answer ($3 status, $4 body) of the request that claimed Idempotency-Key $2 of
-- scope $1. Returns nothing. Served by the key. Committed without waiting for the disk (the
-- flush was most of the key's cost on a 5,000-rider upsert): the work it answers has been
-- committed, flushed, before it, so a database crash in the next fraction of a second loses
-- only this answer, which leaves the key as a process that died before storing it leaves it:
-- claimed, and run again by a repeat after 10 minutes (claim_idempotency_key).
UPDATE idempotency_keys
SET status = $3, answer = $4
FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush
WHERE scope = $1 AND key = $2
