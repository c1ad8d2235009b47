-- "Replay": delivery $2 of endpoint $1 is sent again now, on a fresh retry schedule (the same
-- webhook-id: the receiver may recognise it). Returns one row when it exists. Served by the
-- primary key.
UPDATE webhook_deliveries
SET status = 'pending', attempts = 0, next_attempt_at = now()
WHERE endpoint_id = $1 AND delivery_id = $2
RETURNING delivery_id
